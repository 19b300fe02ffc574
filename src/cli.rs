//! The command line: `serve` (default), `migrate`, `demo`, `openapi`.
//!
//! Contract: parse arguments, load [`Settings`], call into the library and
//! turn failures into a message on stderr and a non-zero exit code. No
//! business logic lives here.

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};

use crate::{
    app::{self, Application},
    config::Settings,
    db::Target,
    demo, telemetry,
};

/// Municipal room tax administration for Wisconsin municipalities and tourism zones.
#[derive(Debug, Parser)]
#[command(name = "roomtax", version, about)]
pub struct Cli {
    /// Settings file (TOML); environment variables override it.
    #[arg(long, global = true, env = "ROOMTAX_CONFIG")]
    pub config: Option<PathBuf>,
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Migrate the database and serve the HTTP API until SIGTERM/SIGINT.
    Serve {
        /// Load the demo data (zone, municipalities, policy presets) first.
        #[arg(long)]
        demo: bool,
    },
    /// Apply pending database migrations and exit.
    Migrate,
    /// Load the demo data into the configured database (idempotent) and exit.
    Demo,
    /// Manage municipalities' policy versions (the ordinance as data).
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// Administration: users and role grants.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Print the OpenAPI document (as committed in openapi/openapi.json).
    Openapi {
        /// Write to this file instead of standard output.
        #[arg(long)]
        output: Option<PathBuf>,
    },
}

/// `roomtax admin ...`
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Rotate the token signing key: a new current key; the old one stays in the
    /// ring so tokens it signed remain valid until they expire. Restart the
    /// service (every instance) afterwards.
    RotateKeys,
    /// Create a user (or find it by email) and grant it a role.
    ///
    /// Municipality roles (clerk_treasurer, municipal_staff, operator,
    /// marketplace_provider) need --municipality; zone roles (commission_member,
    /// tourism_entity, zone_admin) need --zone; an operator needs --payor. The
    /// password of a new user is read from standard input (one line).
    CreateUser {
        /// Sign-in email.
        #[arg(long)]
        email: String,
        /// Role to grant.
        #[arg(long)]
        role: String,
        /// Municipality slug (municipality roles).
        #[arg(long, conflicts_with = "zone")]
        municipality: Option<String>,
        /// Zone slug (zone roles).
        #[arg(long)]
        zone: Option<String>,
        /// Payor id (operator only).
        #[arg(long)]
        payor: Option<String>,
        /// Read the new user's password from standard input.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Record that a municipality is a member of a zone from a date (the person
    /// running the installation; zone admins invite and clerk-treasurers accept
    /// through the API instead). Refused when it overlaps another membership or
    /// its rate differs from the members' (Wis. Stat. § 66.0615).
    JoinZone {
        /// Municipality slug.
        #[arg(long)]
        municipality: String,
        /// Zone slug.
        #[arg(long)]
        zone: String,
        /// First day in the zone (YYYY-MM-DD).
        #[arg(long, value_parser = iso_date)]
        joined_on: chrono::NaiveDate,
    },
}

/// A date written exactly as YYYY-MM-DD.
fn iso_date(text: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .filter(|d| d.format("%Y-%m-%d").to_string() == text)
        .ok_or_else(|| format!("`{text}` is not a date written YYYY-MM-DD"))
}

fn join_zone(
    settings: &Settings,
    municipality: &str,
    zone: &str,
    joined_on: chrono::NaiveDate,
) -> Result<(), String> {
    let mut conn = open(settings)?;
    crate::db::in_transaction(&mut conn, |conn| {
        let m = crate::db::municipalities::require(conn, municipality)?;
        let z = crate::db::zones::by_slug(conn, zone)?
            .ok_or(crate::error::ApiError::NotFound("zone"))?;
        crate::usecases::membership::record_membership(conn, &z, &m, joined_on)
    })
    .map_err(problem_text)?;
    println!("{municipality} is a member of zone {zone} from {joined_on}");
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn create_user(
    settings: &Settings,
    email: &str,
    role: &str,
    municipality: Option<&str>,
    zone: Option<&str>,
    payor: Option<String>,
    password_stdin: bool,
) -> Result<(), String> {
    let role = crate::auth::Role::parse(role).map_err(|e| e.to_string())?;
    let password = if password_stdin {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the password: {e}"))?;
        Some(line.trim_end_matches(['\r', '\n']).to_owned())
    } else {
        None
    };
    let mut conn = open(settings)?;
    let target = match (municipality, zone) {
        (Some(slug), None) => {
            let m = crate::db::municipalities::require(&mut conn, slug)
                .map_err(|e| e.to_problem().detail)?;
            crate::usecases::accounts::GrantTarget::Municipality {
                id: m.id,
                payor_id: payor,
            }
        }
        (None, Some(slug)) => {
            let z = crate::db::zones::by_slug(&mut conn, slug)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no zone {slug}"))?;
            crate::usecases::accounts::GrantTarget::Zone { id: z.id }
        }
        _ => return Err("give --municipality SLUG or --zone SLUG".into()),
    };
    let granted = crate::usecases::accounts::grant_role_in_transaction(
        &mut conn,
        email,
        password.as_deref(),
        role,
        &target,
    )
    .map_err(problem_text)?;
    println!(
        "{} {} ({}); granted {} (grant {})",
        if granted.created {
            "created user"
        } else {
            "found user"
        },
        granted.user.email,
        granted.user.id,
        role.as_str(),
        granted.grant_id
    );
    Ok(())
}

/// `roomtax policy ...`
#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Add a policy version from a TOML file (same format as policies/*.toml).
    ///
    /// The version takes effect on its `effective_from` date; a date that would
    /// change a period that has already ended is refused.
    Add {
        /// Municipality slug, e.g. `montello`.
        #[arg(long)]
        municipality: String,
        /// The policy file.
        #[arg(long)]
        file: PathBuf,
    },
}

fn add_policy(
    settings: &Settings,
    municipality: &str,
    file: &std::path::Path,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let policy =
        crate::domain::Policy::from_toml(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut conn = open(settings)?;
    let today = chrono::Utc::now().date_naive();
    let effective_from = policy.effective_from;
    crate::db::in_transaction(&mut conn, |conn| {
        let muni = crate::db::municipalities::require(conn, municipality)?;
        crate::usecases::policies::add_version(conn, &muni, &policy, "cli:policy-add", today)
    })
    .map_err(problem_text)?;
    println!("policy version effective {effective_from} added to {municipality}");
    Ok(())
}

/// Migrate, then open one connection for a command.
fn open(settings: &Settings) -> Result<crate::db::DbConn, String> {
    let ran = app::migrate(settings).map_err(|e| e.to_string())?;
    tracing::info!(applied = ran, "migrations applied");
    Target::parse(&settings.database_url)
        .and_then(|t| t.connect())
        .map_err(|e| e.to_string())
}

/// A problem as one line for the terminal: its field errors, or its detail.
fn problem_text(err: crate::error::ApiError) -> String {
    let p = err.to_problem();
    if p.errors.is_empty() {
        return p.detail;
    }
    p.errors
        .iter()
        .map(|e| format!("{}: {}", e.field, e.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Entry point used by `main.rs`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("roomtax: {message}");
            ExitCode::FAILURE
        }
    }
}

fn load_demo(settings: &Settings) -> Result<(), String> {
    let mut conn = open(settings)?;
    let report =
        demo::load_in_transaction(&mut conn).map_err(|e| format!("demo load failed: {e}"))?;
    if report.created.is_empty() {
        tracing::info!("demo data already present; nothing changed");
    } else {
        tracing::info!(created = report.created.len(), "demo data loaded");
    }
    if let Some(first) = report.accounts.first() {
        // Printed once, here: only the Argon2id hash is stored.
        println!(
            "Demo accounts (password shown only now): {}",
            first.password
        );
        for a in &report.accounts {
            println!("  {:<34} {:<22} {}", a.email, a.role, a.tenant);
        }
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    let settings = Settings::load(cli.config.as_deref()).map_err(|e| e.to_string())?;
    match cli.command.unwrap_or(Command::Serve { demo: false }) {
        Command::Openapi { output } => {
            let text = crate::api::openapi_json();
            match output {
                Some(path) => std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display())),
                None => {
                    print!("{text}");
                    Ok(())
                }
            }
        }
        Command::Migrate => {
            telemetry::init(&settings);
            let ran = app::migrate(&settings).map_err(|e| e.to_string())?;
            tracing::info!(ran, "migrations applied");
            Ok(())
        }
        Command::Policy(PolicyCommand::Add { municipality, file }) => {
            telemetry::init(&settings);
            add_policy(&settings, &municipality, &file)
        }
        Command::Admin(AdminCommand::RotateKeys) => {
            let ring =
                crate::auth::KeyRing::rotate(&settings.keys_dir).map_err(|e| e.to_string())?;
            println!(
                "new signing key {} in {}; {} previous key(s) kept; restart the service",
                ring.current.kid,
                settings.keys_dir.display(),
                ring.previous.len()
            );
            Ok(())
        }
        Command::Admin(AdminCommand::CreateUser {
            email,
            role,
            municipality,
            zone,
            payor,
            password_stdin,
        }) => {
            telemetry::init(&settings);
            create_user(
                &settings,
                &email,
                &role,
                municipality.as_deref(),
                zone.as_deref(),
                payor,
                password_stdin,
            )
        }
        Command::Admin(AdminCommand::JoinZone {
            municipality,
            zone,
            joined_on,
        }) => {
            telemetry::init(&settings);
            join_zone(&settings, &municipality, &zone, joined_on)
        }
        Command::Demo => {
            telemetry::init(&settings);
            load_demo(&settings)
        }
        Command::Serve { demo } => {
            telemetry::init(&settings);
            if demo {
                load_demo(&settings)?;
            }
            actix_web::rt::System::new().block_on(async {
                let app = Application::build(&settings).map_err(|e| e.to_string())?;
                tracing::info!(
                    "listening on http://{}:{} (API docs at /docs)",
                    settings.host,
                    app.port()
                );
                app.run_until_stopped().await.map_err(|e| e.to_string())
            })
        }
    }
}
