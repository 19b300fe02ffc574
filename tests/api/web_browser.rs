//! A browser without JavaScript for the portal's HTTP tests (`web`,
//! `web_operator`, `web_clerk`, `web_zone`): keeps cookies as a browser does,
//! reads CSRF tokens and hidden fields from pages, posts forms. A test file
//! adds what only it needs as its own `impl Page` / `impl Browser` block.

use std::collections::HashMap;

use reqwest::{Response, StatusCode, header};

use crate::helpers::TestApp;

/// A browser session against one test app.
pub struct Browser<'a> {
    pub app: &'a TestApp,
    pub cookies: HashMap<String, String>,
    /// Send `X-Forwarded-Proto: https`, as a TLS-terminating proxy does.
    pub forwarded_https: bool,
}

/// One answer: status, headers, body text.
pub struct Page {
    pub status: StatusCode,
    pub headers: header::HeaderMap,
    pub body: String,
}

impl Page {
    /// The `Location` header ("" when none).
    pub fn location(&self) -> &str {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// The `value` of the (first) input named `name`; panics when there is none.
    pub fn hidden(&self, name: &str) -> String {
        let re = regex::Regex::new(&format!(r#"name="{name}" value="([^"]+)""#)).unwrap();
        re.captures(&self.body)
            .unwrap_or_else(|| panic!("no {name} field in {}", self.body))[1]
            .to_owned()
    }

    /// The page's CSRF token (64 hex digits).
    pub fn csrf(&self) -> String {
        let token = self.hidden("csrf_token");
        assert!(
            token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()),
            "CSRF token {token:?}"
        );
        token
    }

    /// The `Set-Cookie` header for `name`.
    pub fn set_cookie(&self, name: &str) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with(&format!("{name}=")))
            .map(str::to_owned)
    }
}

impl<'a> Browser<'a> {
    pub fn new(app: &'a TestApp) -> Self {
        Browser {
            app,
            cookies: HashMap::new(),
            forwarded_https: false,
        }
    }

    /// Read `res` into a [`Page`], keeping (or dropping) the cookies it sets.
    pub async fn keep(&mut self, res: Response) -> Page {
        let status = res.status();
        let headers = res.headers().clone();
        for v in headers.get_all(header::SET_COOKIE) {
            let v = v.to_str().unwrap();
            let (pair, attrs) = v.split_once(';').unwrap_or((v, ""));
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || attrs.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
        }
        Page {
            status,
            headers,
            body: res.text().await.unwrap(),
        }
    }

    /// A request carrying the browser's cookies.
    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let cookie: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut rb = self.app.client.request(method, self.app.url(path));
        if !cookie.is_empty() {
            rb = rb.header(header::COOKIE, cookie.join("; "));
        }
        if self.forwarded_https {
            rb = rb.header("X-Forwarded-Proto", "https");
        }
        rb
    }

    pub async fn get(&mut self, path: &str) -> Page {
        let res = self
            .request(reqwest::Method::GET, path)
            .send()
            .await
            .unwrap();
        self.keep(res).await
    }

    /// Post a form (`application/x-www-form-urlencoded`), fields in order.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let res = self
            .request(reqwest::Method::POST, path)
            .form(fields)
            .send()
            .await
            .unwrap();
        self.keep(res).await
    }

    /// [`Browser::post`] with owned fields (a form read back from a page).
    pub async fn post_owned(&mut self, path: &str, fields: &[(String, String)]) -> Page {
        let res = self
            .request(reqwest::Method::POST, path)
            .form(fields)
            .send()
            .await
            .unwrap();
        self.keep(res).await
    }

    /// Post a form as htmx does (`HX-Request: true`): the answer is a fragment.
    pub async fn post_htmx(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let res = self
            .request(reqwest::Method::POST, path)
            .header("HX-Request", "true")
            .form(fields)
            .send()
            .await
            .unwrap();
        self.keep(res).await
    }

    /// Post a `multipart/form-data` form: parts of `(name, content type, bytes)`
    /// (a content type makes the part a file field).
    pub async fn post_multipart(
        &mut self,
        path: &str,
        parts: &[(&str, Option<&str>, &[u8])],
    ) -> Page {
        let boundary = "roomtaxTestBoundary7";
        let mut body = Vec::new();
        for (name, content_type, bytes) in parts {
            body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
            match content_type {
                Some(t) => body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"doc\"\r\nContent-Type: {t}\r\n\r\n").as_bytes(),
                ),
                None => body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
                ),
            }
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let res = self
            .request(reqwest::Method::POST, path)
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
            .send()
            .await
            .unwrap();
        self.keep(res).await
    }

    /// Sign in through the form; the session cookie's `Set-Cookie` header.
    pub async fn sign_in(&mut self, email: &str) -> String {
        let form = self.get("/app/sign-in").await;
        assert_eq!(form.status, 200);
        let password = self.app.password_of(email);
        let page = self
            .post(
                "/app/sign-in",
                &[
                    ("csrf_token", &form.csrf()),
                    ("email", email),
                    ("password", &password),
                ],
            )
            .await;
        assert_eq!(page.status, 303, "sign-in of {email}: {}", page.body);
        assert_eq!(page.location(), "/app/");
        page.set_cookie("roomtax_session")
            .expect("a session cookie")
    }
}
