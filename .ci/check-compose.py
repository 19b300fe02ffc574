#!/usr/bin/env python3
"""Check docker-compose.yml and the Dockerfile without a container engine.

1. Validates docker-compose.yml against the Compose Specification schema bundled with
   check-jsonschema (`check-jsonschema --builtin-schema vendor.compose-spec`).
2. Checks the wiring that the schema cannot see:
   - service `roomtax` builds from ./Dockerfile, publishes 8080, has a restart policy;
   - its DATABASE_URL is postgres://roomtax_app@<db service>/..., with the password
     from the environment, and ROOMTAX_MIGRATION_DATABASE_URL names roomtax_owner on
     the same server and database;
   - it depends on that service with `condition: service_healthy`;
   - the database service runs postgres 15 or newer with a healthcheck (pg_isready),
     a named data volume, and the role-creating init scripts mounted;
   - the Dockerfile is multi-stage, and its final stage runs as a non-root USER.

Usage:
  check-compose.py [--root DIR] [--compose FILE] [--dockerfile FILE] [--no-schema]
  check-compose.py --self-test     breaks copies of the files and expects failures

Needs PyYAML and check-jsonschema in the running interpreter (.ci/run provides a venv).
Exits 0 when every check passes, 1 with one line per problem otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

try:
    import yaml
except ImportError:  # pragma: no cover - reported, not raised
    print(
        "check-compose: PyYAML is missing: run it through .ci/run, or "
        "`pip install pyyaml check-jsonschema`",
        file=sys.stderr,
    )
    sys.exit(2)

APP_SERVICE = "roomtax"
RUNTIME_ROLE = "roomtax_app"
OWNER_ROLE = "roomtax_owner"
APP_PORT = "8080"
MIN_POSTGRES = 15
INIT_DIR_IN_CONTAINER = "/docker-entrypoint-initdb.d"

# ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?err}, ${NAME?err}, ${NAME:+alt},
# $NAME, and $$ (a literal dollar), as Compose interpolates them.
_INTERP = re.compile(
    r"\$(?:(?P<dollar>\$)|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)"
    r"(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))"
)


class Problems(list):
    """The failures found so far, one message each."""

    def need(self, condition: bool, message: str) -> bool:
        if not condition:
            self.append(message)
        return bool(condition)


def interpolate(value: str, problems: Problems, where: str) -> str:
    """Interpolate as Compose would with an empty environment (defaults apply)."""

    def repl(m: re.Match[str]) -> str:
        if m.group("dollar"):
            return "$"
        name = m.group("braced") or m.group("bare")
        op, arg = m.group("op"), m.group("arg") or ""
        if op in (":-", "-"):
            return arg
        if op in (":?", "?"):
            problems.append(f"{where}: ${{{name}}} is required and has no default ({arg})")
            return ""
        return ""  # unset variable, or ${NAME:+alt} with NAME unset

    return _INTERP.sub(repl, value)


def environment(service: dict) -> dict[str, str]:
    """A service's `environment`, list or mapping form, as raw strings."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        out = {}
        for item in env:
            key, _, val = str(item).partition("=")
            out[key] = val
        return out
    return {k: "" if v is None else str(v) for k, v in env.items()}


def volume_mounts(service: dict) -> list[tuple[str, str, str]]:
    """(type, source, target) for each entry of a service's `volumes`."""
    mounts = []
    for v in service.get("volumes") or []:
        if isinstance(v, dict):
            mounts.append((v.get("type", ""), str(v.get("source", "")), str(v.get("target", ""))))
            continue
        parts = str(v).split(":")
        if len(parts) == 1:
            mounts.append(("volume", "", parts[0]))  # anonymous volume
            continue
        source, target = parts[0], parts[1]
        kind = "bind" if source.startswith((".", "/", "~")) else "volume"
        mounts.append((kind, source, target))
    return mounts


def postgres_major(image: str) -> int | None:
    """15 for `postgres:15`, `postgres:15.4-alpine`, `docker.io/library/postgres:17-bookworm`."""
    m = re.fullmatch(r"(?:[\w.\-/]+/)?postgres:(\d+)(?:[.\-][\w.\-]*)?(?:@sha256:[0-9a-f]+)?", image)
    return int(m.group(1)) if m else None


def check_schema(compose: Path) -> Problems:
    problems = Problems()
    cmd = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec", str(compose)]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:  # pragma: no cover
        problems.append(f"could not run check-jsonschema: {e}")
        return problems
    if run.returncode != 0:
        if "No module named check_jsonschema" in run.stderr:
            problems.append(
                "check-jsonschema is not installed in this interpreter "
                f"({sys.executable}); .ci/run installs it into its venv"
            )
        else:
            detail = (run.stdout + run.stderr).strip().replace("\n", "\n    ")
            problems.append(f"{compose.name} does not validate against the compose spec:\n    {detail}")
    return problems


def check_url(
    problems: Problems, raw: str, name: str, role: str, services: dict, db_env: dict[str, str], pw_var: str
) -> tuple[str, str] | None:
    """Check one postgres:// URL of the app; returns (host, database) when usable."""
    url = interpolate(raw, problems, name)
    parts = urlsplit(url)
    if not problems.need(parts.scheme in ("postgres", "postgresql"), f"{name} must be a postgres:// URL, is {url!r}"):
        return None
    host, user = parts.hostname or "", unquote(parts.username or "")
    problems.need(
        host in services,
        f"{name} host {host!r} is not a service of this file (services: {', '.join(services)})",
    )
    problems.need(parts.port in (None, 5432), f"{name} port is {parts.port}, the database service listens on 5432")
    problems.need(user == role, f"{name} connects as {user!r}, expected the {role} role")
    database = parts.path.lstrip("/")
    problems.need(bool(database), f"{name} names no database")
    problems.need(
        parts.password is not None and "${" in raw.split("@", 1)[0],
        f"{name} must take its password from the environment (${{...}}), not a literal",
    )
    if pw_var in db_env and parts.password is not None:
        problems.need(
            unquote(parts.password) == interpolate(db_env[pw_var], problems, pw_var),
            f"{name}'s default password differs from the database service's {pw_var}",
        )
    return host, database


def check_compose(compose: Path, dockerfile: Path) -> Problems:
    problems = Problems()
    root = compose.parent
    try:
        doc = yaml.safe_load(compose.read_text())
    except (OSError, yaml.YAMLError) as e:
        problems.append(f"cannot read {compose}: {e}")
        return problems
    if not problems.need(isinstance(doc, dict), f"{compose.name} is not a mapping"):
        return problems
    problems.need("version" not in doc, "top-level `version:` is obsolete in the compose spec: remove it")
    services = doc.get("services") or {}
    top_volumes = doc.get("volumes") or {}
    app = services.get(APP_SERVICE)
    if not problems.need(isinstance(app, dict), f"no service `{APP_SERVICE}`"):
        return problems

    # --- the app service: build, ports, restart ---
    build = app.get("build")
    if isinstance(build, str):
        build = {"context": build}
    if problems.need(isinstance(build, dict), f"service {APP_SERVICE} must be built (`build:`) from the Dockerfile"):
        context = (root / str(build.get("context", "."))).resolve()
        used = (context / str(build.get("dockerfile", "Dockerfile"))).resolve()
        problems.need(
            used == dockerfile.resolve(),
            f"service {APP_SERVICE} builds from {used}, expected {dockerfile.resolve()}",
        )
        problems.need(used.is_file(), f"the Dockerfile {used} does not exist")
    published = []
    for p in app.get("ports") or []:
        if isinstance(p, dict):
            published.append(str(p.get("target", "")))
        else:
            published.append(interpolate(str(p), problems, "ports").split("/")[0].rsplit(":", 1)[-1])
    problems.need(APP_PORT in published, f"service {APP_SERVICE} does not publish container port {APP_PORT}")
    problems.need(
        app.get("restart") in ("always", "unless-stopped", "on-failure")
        or str(app.get("restart", "")).startswith("on-failure:"),
        f"service {APP_SERVICE} needs a restart policy (unless-stopped, always or on-failure)",
    )

    # --- the wiring to the database ---
    env = environment(app)
    if not problems.need("DATABASE_URL" in env, f"service {APP_SERVICE} sets no DATABASE_URL"):
        return problems
    db_host = urlsplit(interpolate(env["DATABASE_URL"], Problems(), "")).hostname or ""
    if db_host not in services and "db" in services:
        db_host = "db"  # reported by check_url; go on checking the likely database service
    db = services.get(db_host) if isinstance(services.get(db_host), dict) else {}
    db_env = environment(db)
    runtime = check_url(
        problems, env["DATABASE_URL"], "DATABASE_URL", RUNTIME_ROLE, services, db_env, "ROOMTAX_APP_DB_PASSWORD"
    )
    if problems.need(
        "ROOMTAX_MIGRATION_DATABASE_URL" in env,
        f"service {APP_SERVICE} sets no ROOMTAX_MIGRATION_DATABASE_URL (the owner role for migrations)",
    ):
        owner = check_url(
            problems,
            env["ROOMTAX_MIGRATION_DATABASE_URL"],
            "ROOMTAX_MIGRATION_DATABASE_URL",
            OWNER_ROLE,
            services,
            db_env,
            "ROOMTAX_OWNER_DB_PASSWORD",
        )
        if runtime and owner:
            problems.need(
                runtime == owner,
                f"DATABASE_URL points at {runtime}, ROOMTAX_MIGRATION_DATABASE_URL at {owner}: not the same database",
            )
    if runtime is None or not db:
        return problems

    depends = app.get("depends_on") or {}
    if isinstance(depends, list):
        problems.append(
            f"service {APP_SERVICE} lists depends_on in the short form: use `{db_host}: {{condition: service_healthy}}`"
        )
    else:
        cond = (depends.get(db_host) or {}).get("condition")
        problems.need(
            cond == "service_healthy",
            f"service {APP_SERVICE} must depend on {db_host} with condition service_healthy (has {cond!r})",
        )

    # --- the database service ---
    major = postgres_major(str(db.get("image", "")))
    problems.need(
        major is not None and major >= MIN_POSTGRES,
        f"service {db_host} must run the postgres image, version {MIN_POSTGRES} or newer (image {db.get('image')!r})",
    )
    hc = db.get("healthcheck") or {}
    test = hc.get("test")
    test_text = " ".join(test) if isinstance(test, list) else str(test or "")
    problems.need(
        bool(test) and not hc.get("disable") and test_text.strip() != "NONE",
        f"service {db_host} has no healthcheck",
    )
    problems.need("pg_isready" in test_text, f"service {db_host}'s healthcheck should run pg_isready")
    mounts = volume_mounts(db)
    data_volumes = [s for kind, s, t in mounts if kind == "volume" and s and t.rstrip("/").startswith("/var/lib/postgresql")]
    if problems.need(bool(data_volumes), f"service {db_host} keeps its data in no named volume under /var/lib/postgresql"):
        for source in data_volumes:
            problems.need(source in top_volumes, f"volume {source!r} is not declared under the top-level `volumes:`")
    problems.need(
        "${" in db_env.get("POSTGRES_PASSWORD", "") or "POSTGRES_PASSWORD_FILE" in db_env,
        f"service {db_host} must take POSTGRES_PASSWORD from the environment (${{...}})",
    )
    init = [(s, t) for kind, s, t in mounts if kind == "bind" and t.rstrip("/") == INIT_DIR_IN_CONTAINER]
    if problems.need(bool(init), f"service {db_host} mounts no init scripts at {INIT_DIR_IN_CONTAINER}"):
        init_dir = (root / init[0][0]).resolve()
        scripts = sorted(p for p in init_dir.glob("*") if p.suffix in (".sh", ".sql") or p.name.endswith(".sql.gz"))
        if problems.need(bool(scripts), f"{init_dir} holds no .sh or .sql init script"):
            text = "\n".join(p.read_text(errors="replace") for p in scripts)
            for word in (RUNTIME_ROLE, OWNER_ROLE, "NOSUPERUSER", "NOBYPASSRLS", "ALTER DEFAULT PRIVILEGES"):
                problems.need(word in text, f"the init scripts in {init_dir} never mention {word}")
    return problems


def dockerfile_instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per logical line: continuations joined, comments dropped."""
    out, pending = [], ""
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # comment inside a continued instruction
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        full = (pending + stripped).strip()
        pending = ""
        if full:
            word, _, rest = full.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def check_dockerfile(path: Path) -> Problems:
    problems = Problems()
    try:
        instructions = dockerfile_instructions(path)
    except OSError as e:
        problems.append(f"cannot read {path}: {e}")
        return problems
    froms = [i for i, (word, _) in enumerate(instructions) if word == "FROM"]
    if not problems.need(bool(froms), f"{path.name} has no FROM"):
        return problems
    problems.need(len(froms) >= 2, f"{path.name} must be multi-stage (has {len(froms)} FROM)")
    stage_names = set()
    for i in froms[:-1]:
        m = re.search(r"\bAS\s+(\S+)", instructions[i][1], re.I)
        if m:
            stage_names.add(m.group(1).lower())
    final = instructions[froms[-1] :]
    base = final[0][1].split()
    base_image = next((b for b in base if not b.startswith("--")), "")
    problems.need(
        not base_image.startswith("rust"),
        f"the final stage runs on {base_image!r}: use a small runtime image, not the toolchain",
    )
    users = [args for word, args in final if word == "USER"]
    if problems.need(bool(users), f"the final stage of {path.name} sets no USER (it would run as root)"):
        user = users[-1].split(":")[0].strip()
        problems.need(user not in ("root", "0", ""), f"the final stage of {path.name} runs as USER {users[-1]!r}")
    copies_from = [
        m.group(1).lower()
        for word, args in final
        if word == "COPY" and (m := re.search(r"--from=(\S+)", args))
    ]
    problems.need(
        any(c in stage_names or c.isdigit() for c in copies_from),
        f"the final stage of {path.name} copies nothing from a build stage",
    )
    problems.need(
        any(word == "EXPOSE" and APP_PORT in args.split() for word, args in final),
        f"the final stage of {path.name} does not EXPOSE {APP_PORT}",
    )
    problems.need(
        any(word == "ENTRYPOINT" and "roomtax" in args for word, args in final),
        f"the final stage of {path.name} has no ENTRYPOINT running roomtax",
    )
    return problems


def run_checks(root: Path, compose: Path, dockerfile: Path, schema: bool) -> Problems:
    problems = Problems()
    if schema:
        problems += check_schema(compose)
    problems += check_compose(compose, dockerfile)
    problems += check_dockerfile(dockerfile)
    return problems


# --- self-test: every mutation must be caught ---------------------------------------

MUTATIONS = [
    # (what, file, old, new)
    ("unknown key (schema)", "docker-compose.yml", "stop_grace_period:", "stop_grace_periode:"),
    ("bad depends_on condition (schema)", "docker-compose.yml", "condition: service_healthy", "condition: service_happy"),
    ("depends_on without health", "docker-compose.yml", "condition: service_healthy", "condition: service_started"),
    ("wrong DATABASE_URL host", "docker-compose.yml", "@db:5432/roomtax\n", "@localhost:5432/roomtax\n"),
    ("runtime role is the owner", "docker-compose.yml", "postgres://roomtax_app:", "postgres://roomtax_owner:"),
    ("literal password", "docker-compose.yml", "roomtax_app:${ROOMTAX_APP_DB_PASSWORD:-change-me-app}@", "roomtax_app:secret@"),
    ("no healthcheck", "docker-compose.yml", "    healthcheck:\n", "    x-no-healthcheck:\n"),
    ("no db volume", "docker-compose.yml", "      - pgdata:/var/lib/postgresql/data\n", ""),
    ("old postgres", "docker-compose.yml", "image: postgres:17-bookworm", "image: postgres:14"),
    ("built from another Dockerfile", "docker-compose.yml", "dockerfile: Dockerfile", "dockerfile: Dockerfile.dev"),
    ("no restart policy", "docker-compose.yml", "    image: roomtax:local\n    restart: unless-stopped\n", "    image: roomtax:local\n"),
    ("migration URL missing", "docker-compose.yml", "      ROOMTAX_MIGRATION_DATABASE_URL:", "      ROOMTAX_MIGRATION_URL:"),
    ("root user", "Dockerfile", "USER 10001:10001", "USER root"),
    ("no user", "Dockerfile", "USER 10001:10001\n", ""),
    ("single stage", "Dockerfile", "FROM debian:bookworm-slim AS runtime", "# one stage"),
]


def self_test(root: Path) -> int:
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check-compose-") as tmp:
        base = Path(tmp) / "clean"
        base.mkdir()
        shutil.copy(root / "docker-compose.yml", base)
        shutil.copy(root / "Dockerfile", base)
        shutil.copytree(root / "deploy", base / "deploy")
        clean = run_checks(base, base / "docker-compose.yml", base / "Dockerfile", schema=True)
        if clean:
            print("self-test: FAIL: the unmodified copy does not pass:\n  " + "\n  ".join(clean))
            return 1
        print("self-test: unmodified copy passes")
        for i, (what, fname, old, new) in enumerate(MUTATIONS):
            case = Path(tmp) / f"case{i}"
            shutil.copytree(base, case)
            text = (case / fname).read_text()
            if old not in text:
                print(f"self-test: FAIL: mutation {what!r} does not apply ({old!r} not in {fname})")
                failures += 1
                continue
            (case / fname).write_text(text.replace(old, new, 1))
            found = run_checks(case, case / "docker-compose.yml", case / "Dockerfile", schema="schema" in what)
            if found:
                print(f"self-test: caught {what}: {found[0].splitlines()[0]}")
            else:
                print(f"self-test: FAIL: {what} was not caught")
                failures += 1
    print(f"self-test: {'FAIL' if failures else 'ok'} ({len(MUTATIONS) - failures}/{len(MUTATIONS)} mutations caught)")
    return 1 if failures else 0


def main() -> int:
    repo = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=repo, help="repository root (default: this script's repo)")
    ap.add_argument("--compose", type=Path, help="compose file (default: ROOT/docker-compose.yml)")
    ap.add_argument("--dockerfile", type=Path, help="Dockerfile (default: ROOT/Dockerfile)")
    ap.add_argument("--no-schema", action="store_true", help="skip the compose-spec schema validation")
    ap.add_argument("--self-test", action="store_true", help="check that broken copies are caught")
    args = ap.parse_args()
    root = args.root.resolve()
    if args.self_test:
        return self_test(root)
    compose = (args.compose or root / "docker-compose.yml").resolve()
    dockerfile = (args.dockerfile or root / "Dockerfile").resolve()
    problems = run_checks(root, compose, dockerfile, schema=not args.no_schema)
    def rel(p: Path) -> str:
        return os.path.relpath(p, root) if p.is_relative_to(root) else str(p)

    if problems:
        print(f"check-compose: FAIL: {rel(compose)} / {rel(dockerfile)}: {len(problems)} problem(s)")
        for p in problems:
            print(f"  - {p}")
        return 1
    what = "compose-spec schema, " if not args.no_schema else ""
    print(f"check-compose: ok: {rel(compose)} and {rel(dockerfile)} ({what}service wiring, two roles, non-root multi-stage image)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
