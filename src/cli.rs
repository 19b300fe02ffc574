//! The command line: `serve` (default), `migrate`, `demo`, `check`, `post-daily`,
//! `policy add`, `admin ...` (tenants, users, passwords, signing keys),
//! `openapi`.
//! `backup` and `restore` (SQLite; PostgreSQL: the pg_dump procedure, exit 2).
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
    /// Verify the ledger's invariants on the configured database (reads only,
    /// migrates nothing): every journal has lines summing to zero, every
    /// version of a return has its journal, the append-only guards are in
    /// force. Prints what it checked; exits non-zero naming each broken one.
    Check,
    /// Post today's late-payment forfeitures (Montello: tax unpaid more than
    /// 30 days after the due date of its return, forfeiture not yet
    /// charged) for one municipality; a second run the same day posts
    /// nothing. Prints how many were posted and their journals (no amounts).
    PostDaily {
        /// The municipality's slug, e.g. `montello`.
        #[arg(long)]
        municipality: String,
    },
    /// Manage municipalities' policy versions (the ordinance as data).
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// Administration: tenants (zones, municipalities), users, passwords, role grants, signing keys.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Back the SQLite database up while the service runs: a consistent copy
    /// (SQLite's VACUUM INTO, as of one commit), fsynced, checked with
    /// PRAGMA integrity_check, moved into place; prints its size and SHA-256.
    /// On PostgreSQL it explains the pg_dump procedure and exits 2.
    Backup {
        /// The file to write (mode 0600); refused if it exists, unless --force.
        #[arg(long)]
        output: PathBuf,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Restore a backup as the SQLite database (the service must be stopped):
    /// verifies a copy (PRAGMA integrity_check, migrations, `roomtax check`)
    /// before moving it into place; the database it replaces is kept as
    /// `<file>.replaced-<time>`. On PostgreSQL it explains pg_restore and exits 2.
    Restore {
        /// The backup file (as `roomtax backup` wrote it).
        #[arg(long)]
        input: PathBuf,
        /// Replace an existing database file.
        #[arg(long)]
        force: bool,
    },
    /// Seed a fresh database for the benchmark (bench/run.sh): a zone of
    /// 50 × SCALE municipalities × 2,000 payors with the 2025 returns and
    /// payments, through the use cases; prints a JSON report (with the
    /// accounts' one password) and writes `slug,payor_id` lines to --ids.
    #[command(hide = true)]
    BenchSeed {
        /// 1 = 50 municipalities × 2,000 payors; 0.02 = one of 2,000.
        #[arg(long)]
        scale: f64,
        /// Where the payor ids go (`slug,payor_id` lines).
        #[arg(long)]
        ids: PathBuf,
    },
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
    /// Create a tourism zone (its members join separately).
    CreateZone {
        /// URL identifier: lowercase letters, digits and single hyphens, e.g. `marquette-county`.
        #[arg(long)]
        slug: String,
        /// Name, e.g. "Marquette County Tourism Zone".
        #[arg(long)]
        name: String,
        /// The Wisconsin county the zone covers, if it is a county's zone.
        #[arg(long)]
        county: Option<String>,
        /// Name of the zone's tourism commission (default: the zone's name + " Commission").
        #[arg(long)]
        commission: Option<String>,
    },
    /// Create a municipality (a tenant that levies room tax).
    CreateMunicipality {
        /// URL identifier: lowercase letters, digits and single hyphens, e.g. `montello`.
        #[arg(long)]
        slug: String,
        /// Official name, e.g. "City of Montello".
        #[arg(long)]
        name: String,
        /// city, village or town.
        #[arg(long)]
        kind: String,
        /// The Wisconsin county it lies in, e.g. `Marquette`.
        #[arg(long)]
        county: String,
        /// A zone it is a member of from `--joined-on` (recorded in the same
        /// transaction, under the zone rules of `admin join-zone`).
        #[arg(long, requires = "joined_on")]
        zone: Option<String>,
        /// First day in `--zone` (YYYY-MM-DD).
        #[arg(long, value_parser = iso_date, requires = "zone")]
        joined_on: Option<chrono::NaiveDate>,
    },
    /// Set a user's password (read from standard input, one line); signs the user
    /// out everywhere (every refresh token is revoked).
    SetPassword {
        /// The user's sign-in email.
        #[arg(long)]
        email: String,
        /// Read the new password from standard input (required: a password is never
        /// given on the command line, where other users could see it).
        #[arg(long, required = true)]
        password_stdin: bool,
    },
    /// Create a user (or find it by email) and grant it a role.
    ///
    /// Municipality roles (clerk_treasurer, municipal_staff, operator,
    /// marketplace_provider) need --municipality; zone roles (commission_member,
    /// tourism_entity, zone_admin) need --zone; an operator needs --payor. The
    /// password of a new user is read from standard input (one line); an existing
    /// user's password is left unchanged (use `admin set-password`).
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
        Some(read_password()?)
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
    if !granted.created {
        println!(
            "the password of {} was left unchanged{} (to change it: roomtax admin set-password --email {} --password-stdin)",
            granted.user.email,
            if password_stdin {
                ": the password read from standard input was not used"
            } else {
                ""
            },
            granted.user.email
        );
    }
    Ok(())
}

/// One line from standard input, without its line ending.
fn read_password() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password: {e}"))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}

fn set_password(settings: &Settings, email: &str) -> Result<(), String> {
    let password = read_password()?;
    let hash = crate::usecases::accounts::hash_new_password("password", &password)
        .map_err(problem_text)?;
    let mut conn = open(settings)?;
    let revoked = crate::db::in_transaction(&mut conn, |conn| {
        crate::usecases::accounts::set_password(conn, email, &hash)
    })
    .map_err(problem_text)?;
    println!(
        "password of {} changed; {revoked} refresh token(s) revoked (signed out everywhere)",
        email.trim().to_lowercase()
    );
    Ok(())
}

fn create_zone(
    settings: &Settings,
    slug: &str,
    name: &str,
    county: Option<&str>,
    commission: Option<&str>,
) -> Result<(), String> {
    use crate::domain::tenant::{County, NewZone, Slug, TenantName};
    let name = TenantName::parse("name", name).map_err(domain_text)?;
    let commission_name = match commission {
        Some(commission) => commission.to_owned(),
        None => format!("{name} Commission"),
    };
    let new = NewZone {
        slug: Slug::parse("slug", slug).map_err(domain_text)?,
        county: county
            .map(|c| County::parse("county", c))
            .transpose()
            .map_err(domain_text)?,
        commission_name: TenantName::parse("commission", &commission_name).map_err(domain_text)?,
        name,
    };
    let mut conn = open(settings)?;
    let zone = crate::db::in_transaction(&mut conn, |conn| {
        crate::usecases::tenants::create_zone(conn, &new)
    })
    .map_err(problem_text)?;
    println!(
        "created zone {} ({}; commission: {})",
        zone.slug, zone.name, zone.commission_name
    );
    Ok(())
}

fn create_municipality(
    settings: &Settings,
    slug: &str,
    name: &str,
    kind: &str,
    county: &str,
    zone: Option<(&str, chrono::NaiveDate)>,
) -> Result<(), String> {
    use crate::domain::tenant::{County, MunicipalityKind, NewMunicipality, Slug, TenantName};
    let new = NewMunicipality {
        slug: Slug::parse("slug", slug).map_err(domain_text)?,
        name: TenantName::parse("name", name).map_err(domain_text)?,
        kind: MunicipalityKind::parse("kind", kind).map_err(domain_text)?,
        county: County::parse("county", county).map_err(domain_text)?,
    };
    let mut conn = open(settings)?;
    let muni = crate::db::in_transaction(&mut conn, |conn| {
        let muni = crate::usecases::tenants::create_municipality(conn, &new)?;
        if let Some((zone, joined_on)) = zone {
            let z = crate::db::zones::by_slug(conn, zone)?
                .ok_or(crate::error::ApiError::NotFound("zone"))?;
            crate::usecases::membership::record_membership(conn, &z, &muni, joined_on)?;
        }
        Ok(muni)
    })
    .map_err(problem_text)?;
    println!(
        "created municipality {} ({}, {} in {} County); next: roomtax policy add --municipality {}",
        muni.slug, muni.name, muni.kind, muni.county, muni.slug
    );
    if let Some((zone, joined_on)) = zone {
        println!(
            "{} is a member of zone {zone} from {joined_on}; its policy must levy the members' rate (Wis. Stat. § 66.0615)",
            muni.slug
        );
    }
    Ok(())
}

/// A domain refusal as one line for the terminal, naming the option.
fn domain_text(err: crate::domain::DomainError) -> String {
    match err {
        crate::domain::DomainError::Invalid { field, message, .. } => {
            format!("--{field}: {message}")
        }
        other => other.to_string(),
    }
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
        #[arg(long, required_unless_present = "preset", conflicts_with = "preset")]
        file: Option<PathBuf>,
        /// A shipped preset instead of a file: `montello` or `hayward`
        /// (policies/montello.toml, policies/hayward.toml).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::domain::presets::SLUGS))]
        preset: Option<String>,
    },
}

fn add_policy(
    settings: &Settings,
    municipality: &str,
    file: Option<&std::path::Path>,
    preset: Option<&str>,
) -> Result<(), String> {
    let policy = match (file, preset) {
        (Some(file), _) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            crate::domain::Policy::from_toml(&text)
                .map_err(|e| format!("{}: {e}", file.display()))?
        }
        (None, Some(slug)) => crate::domain::presets::by_slug(slug)
            .ok_or_else(|| format!("no preset {slug} (montello, hayward)"))?,
        (None, None) => return Err("give --file FILE or --preset NAME".into()),
    };
    let mut conn = open(settings)?;
    let today = crate::domain::clock::local_date(chrono::Utc::now());
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

/// A backup's or restore's failure as one line; on PostgreSQL the
/// explanation of the pg_dump procedure, and exit status 2 (not a failure of
/// the command: a procedure that lives outside it).
fn backup_text(err: crate::usecases::backup::BackupError) -> String {
    if let crate::usecases::backup::BackupError::Postgres = err {
        eprintln!("roomtax: {err}");
        std::process::exit(2);
    }
    err.to_string()
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
    for c in &report.certificates {
        // Shown once, here: only the code's digest is stored.
        println!(
            "Clearance certificate of payor {} (code shown only now): {}",
            c.payor_id, c.verification_code
        );
    }
    Ok(())
}

/// `roomtax bench-seed`: the benchmark's data (see `demo::bench`).
fn bench_seed(settings: &Settings, scale: f64, ids: &std::path::Path) -> Result<(), String> {
    let size = demo::bench::Size::of(scale)?;
    let mut conn = open(settings)?;
    let file = std::fs::File::create(ids).map_err(|e| format!("{}: {e}", ids.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let started = std::time::Instant::now();
    // On PostgreSQL, statistics as the tables grow (after batches 1, 2, 4, 8
    // ... and every 64th): the seed's one connection would otherwise keep the
    // generic plans it made on empty tables, which walk a municipality's whole
    // ledger per lookup (3 payors a second instead of hundreds), and
    // autovacuum may be off or behind. ANALYZE needs the tables' owner: the
    // migration role's connection.
    let mut maintenance = match Target::parse(
        settings
            .migration_database_url
            .as_ref()
            .unwrap_or(&settings.database_url),
    )
    .map_err(|e| e.to_string())?
    {
        target @ Target::Postgres(_) => Some(target.connect().map_err(|e| e.to_string())?),
        Target::Sqlite(_) => None,
    };
    let mut progress = |done: usize, total: usize| {
        if let Some(conn) = maintenance.as_mut()
            && (done.is_power_of_two() || done.is_multiple_of(64) || done == total)
            && let Err(e) = crate::db::analyze(conn)
        {
            tracing::warn!(error = %e, "bench-seed: ANALYZE failed");
        }
        if done == total || done.is_multiple_of(10) {
            eprintln!(
                "bench-seed: {done}/{total} batches ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let report = demo::bench::seed(&mut conn, size, &mut out, &mut progress)
        .map_err(|e| format!("bench seed failed: {}", problem_text(e)))?;
    std::io::Write::flush(&mut out).map_err(|e| e.to_string())?;
    println!(
        "{}",
        serde_json::to_string(&report).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// `roomtax check`: run the ledger's checks on the runtime connection.
fn check(settings: &Settings) -> Result<(), String> {
    let mut conn = Target::parse(&settings.database_url)
        .and_then(|t| t.connect())
        .map_err(|e| e.to_string())?;
    // The operator runs this: an unexpected database error is shown as it is.
    let report = crate::usecases::ledger::check::run(&mut conn).map_err(|e| e.to_string())?;
    for line in &report.checked {
        println!("ok: {line}");
    }
    for line in &report.broken {
        println!("BROKEN: {line}");
    }
    if report.is_sound() {
        println!("ledger check passed");
        Ok(())
    } else {
        Err(format!(
            "ledger check failed: {} invariant violation(s): {}",
            report.broken.len(),
            report.broken.join("; ")
        ))
    }
}

/// `roomtax post-daily`: the clerk's daily posting, as of today's local date.
fn post_daily(settings: &Settings, municipality: &str) -> Result<(), String> {
    use crate::tenancy::{DbScope, Tenant};
    let mut conn = open(settings)?;
    let today = crate::domain::clock::local_date(chrono::Utc::now());
    let posting = crate::db::in_transaction(&mut conn, |conn| {
        let muni = crate::db::municipalities::require(conn, municipality)?;
        crate::db::rls::apply(conn, &DbScope::tenant(Tenant::Municipality(muni.id)))?;
        crate::usecases::ledger::daily::post_daily(conn, muni.id, today)
    })
    .map_err(problem_text)?;
    println!(
        "daily posting {today} for {municipality}: {} return(s) examined, {} forfeiture(s) posted",
        posting.examined,
        posting.posted.len()
    );
    for p in &posting.posted {
        println!("  posted journal {} (return {})", p.journal_id, p.return_id);
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
        Command::Policy(PolicyCommand::Add {
            municipality,
            file,
            preset,
        }) => {
            telemetry::init(&settings);
            add_policy(&settings, &municipality, file.as_deref(), preset.as_deref())
        }
        Command::Admin(AdminCommand::CreateZone {
            slug,
            name,
            county,
            commission,
        }) => {
            telemetry::init(&settings);
            create_zone(
                &settings,
                &slug,
                &name,
                county.as_deref(),
                commission.as_deref(),
            )
        }
        Command::Admin(AdminCommand::CreateMunicipality {
            slug,
            name,
            kind,
            county,
            zone,
            joined_on,
        }) => {
            telemetry::init(&settings);
            let zone = zone.as_deref().zip(joined_on);
            create_municipality(&settings, &slug, &name, &kind, &county, zone)
        }
        Command::Admin(AdminCommand::SetPassword { email, .. }) => {
            telemetry::init(&settings);
            set_password(&settings, &email)
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
        Command::Check => {
            telemetry::init(&settings);
            check(&settings)
        }
        Command::BenchSeed { scale, ids } => {
            telemetry::init(&settings);
            bench_seed(&settings, scale, &ids)
        }
        Command::PostDaily { municipality } => {
            telemetry::init(&settings);
            post_daily(&settings, &municipality)
        }
        Command::Backup { output, force } => {
            let report = crate::usecases::backup::backup(&settings.database_url, &output, force)
                .map_err(backup_text)?;
            println!(
                "backup written to {}: {} bytes, sha256 {}",
                report.path.display(),
                report.bytes,
                report.sha256
            );
            Ok(())
        }
        Command::Restore { input, force } => {
            let report = crate::usecases::backup::restore(
                &settings.database_url,
                &input,
                force,
                chrono::Utc::now(),
            )
            .map_err(backup_text)?;
            for line in &report.checked {
                println!("ok: {line}");
            }
            if let Some(kept) = &report.replaced {
                println!("the database it replaces was kept as {}", kept.display());
            }
            println!(
                "restored {} as {}; start the service",
                input.display(),
                report.database.display()
            );
            Ok(())
        }
        Command::Serve { demo } => {
            telemetry::init(&settings);
            app::tune_malloc();
            actix_web::rt::System::new().block_on(async {
                // Before anything binds: from here on SIGTERM/SIGINT stop the
                // server gracefully instead of killing the process.
                let signals = app::ShutdownSignals::install()
                    .map_err(|e| format!("cannot install the signal handlers: {e}"))?;
                if demo {
                    load_demo(&settings)?;
                }
                let app = Application::build(&settings).map_err(|e| e.to_string())?;
                app.serve(signals, |addr| {
                    tracing::info!("listening on http://{addr} (API docs at /docs)");
                    // On stdout too, for scripts and tests (with `port = 0`, the port
                    // the system picked): printed once the server accepts requests.
                    println!("listening on http://{addr}");
                })
                .await
                .map_err(|e| e.to_string())
            })
        }
    }
}
