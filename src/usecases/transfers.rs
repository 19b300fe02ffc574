//! Transfers of a payor's establishments to another payor (issue 9 item 8:
//! "transferring a payor's establishments to a new payor shows those
//! quarters and what is owed").
//!
//! Contract:
//! - the clerk-treasurer or staff only (`Action::EnforceCollection`, people,
//!   never an API client, never an operator of the seller or the buyer): a
//!   transfer is the municipality enforcing the sale-of-business rule, and
//!   its answer shows the seller's account (what is owed), which only the
//!   clerk's side may read; `Action::WritePayors` would let an API client
//!   with the registry scope move a business and read the seller's debts;
//! - every fault of the body at once (422): `transfer_on` not after today
//!   (the municipality's local date), `to_payor` not the seller, the
//!   `establishments` ids unique, each one of the seller's, each opened on
//!   or before `transfer_on` (`before_opening`). An unknown seller or buyer
//!   is 404 `payor`; an establishment closed at the seller on or before
//!   `transfer_on` (or no open one to transfer) is 409
//!   `not_open_at_seller`; a buyer closed by `transfer_on` is 409
//!   `buyer_closed`;
//! - in one unit of work: each establishment's row at the seller is closed
//!   on `transfer_on` (the row stays: the registry keeps the seller's
//!   history) and a new row with the same name, address, kind and units is
//!   opened at the buyer on `transfer_on`; both payors' versions are bumped;
//!   a `payor_transfers` row (seller, buyer, date, who, when) and one
//!   `payor_transfer_establishments` row per establishment (seller's row,
//!   buyer's row) record it, append-only. Nothing is posted to the ledger:
//!   the seller's debt stays on the seller's account;
//! - the answer carries the successor's position by the policy in force on
//!   `transfer_on` (`Policy::sale_of_business`): Hayward (`successor_liable`)
//!   the preceding quarters not filed or not paid with what is owed, the
//!   existing computation (`clearance::successor_liability`, which logs the
//!   read of the seller's account); Montello (`clearance_certificate`)
//!   whether a clearance certificate was issued for the seller and, if none
//!   was, the buyer's duty to withhold part of the purchase price (Montello
//!   room tax, sale of business ¶);
//! - [`list`]: the transfers in which the payor sold or bought, oldest
//!   first, with what each moved (clerk or staff; logged as a read of the
//!   payor).

use std::collections::BTreeSet;

use chrono::NaiveDate;

use crate::{
    db::{
        self, DbConn,
        clearance::CertificateRow,
        models::EstablishmentRow,
        transfers::{TransferRow, TransferredRow},
    },
    domain::{policy::SaleProvision, registry::Invalid},
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::{
        clearance::{self, SuccessorLiability, WITHHOLDING_DUTY},
        payors::Actor,
        returns::PayorTerms,
    },
};

/// A transfer as the clerk enters it.
#[derive(Debug, Clone)]
pub struct NewTransfer {
    /// The buyer: an existing payor of the municipality.
    pub to_payor: String,
    /// The seller's establishments to transfer; `None`: every one open on
    /// `transfer_on`.
    pub establishments: Option<Vec<String>>,
    /// The date the business passes.
    pub transfer_on: NaiveDate,
}

/// Montello: whether the seller holds a clearance certificate.
#[derive(Debug, Clone)]
pub struct ClearanceStatus {
    /// The latest certificate issued for the seller, if any.
    pub certificate: Option<CertificateRow>,
    /// The buyer's duty to withhold, in the ordinance's words.
    pub withholding_duty: String,
    /// The paragraph it rests on.
    pub citation: String,
}

/// What the successor answers for, by the policy's sale provision.
#[derive(Debug, Clone)]
pub enum Succession {
    /// Hayward: the preceding quarters not filed or not paid.
    SuccessorLiable(SuccessorLiability),
    /// Montello: the clearance certificate, or the duty to withhold.
    ClearanceCertificate(ClearanceStatus),
}

/// A transfer with what it moved.
#[derive(Debug, Clone)]
pub struct Transfer {
    /// The stored row.
    pub row: TransferRow,
    /// The establishments moved, each with its name.
    pub moved: Vec<(TransferredRow, String)>,
}

/// A transfer just recorded, with the successor's position.
#[derive(Debug, Clone)]
pub struct RecordedTransfer {
    /// The transfer.
    pub transfer: Transfer,
    /// What the buyer answers for.
    pub succession: Succession,
}

/// The seller's establishments the transfer moves (see the module doc).
fn chosen(
    conn: &mut DbConn,
    municipality_id: i64,
    seller_id: &str,
    wanted: Option<&[String]>,
    transfer_on: NaiveDate,
    faults: &mut Vec<FieldError>,
) -> Result<Vec<EstablishmentRow>, ApiError> {
    let own = db::payors::establishments_of(conn, municipality_id, seller_id)?;
    let open_on = |e: &EstablishmentRow| e.closed_on.is_none_or(|c| c > transfer_on);
    let rows: Vec<EstablishmentRow> = match wanted {
        None => own.into_iter().filter(open_on).collect(),
        Some(ids) => {
            let mut seen = BTreeSet::new();
            let mut rows = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                if !seen.insert(id.as_str()) {
                    faults.push(FieldError::new(
                        format!("establishments[{i}]"),
                        "duplicate",
                        "each establishment is named once",
                    ));
                    continue;
                }
                match own.iter().find(|e| &e.id == id) {
                    Some(e) => rows.push(e.clone()),
                    None => faults.push(FieldError::new(
                        format!("establishments[{i}]"),
                        "not_the_sellers",
                        "not an establishment of this payor",
                    )),
                }
            }
            if ids.is_empty() {
                faults.push(FieldError::new(
                    "establishments",
                    "empty",
                    "name at least one establishment, or leave the field out for every open one",
                ));
            }
            rows
        }
    };
    for e in &rows {
        if let Some(opened) = e.opened_on
            && opened > transfer_on
        {
            faults.push(FieldError::new(
                "transfer_on",
                "before_opening",
                format!(
                    "establishment {} opened {opened}: it cannot pass before it opened",
                    e.id
                ),
            ));
        }
    }
    Ok(rows)
}

/// Record a transfer (see the module doc).
pub fn record(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    seller_id: &str,
    body: NewTransfer,
    today: NaiveDate,
) -> Result<RecordedTransfer, ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let municipality_id = ctx.municipality_id;
    let seller =
        db::payors::get(conn, municipality_id, seller_id)?.ok_or(ApiError::NotFound("payor"))?;
    let mut faults = Vec::new();
    crate::usecases::judge::not_after_today("transfer_on", body.transfer_on, today, &mut faults);
    if body.to_payor == seller.id {
        faults.push(FieldError::new(
            "to_payor",
            "same_payor",
            "the buyer is another payor than the seller",
        ));
    }
    let rows = chosen(
        conn,
        municipality_id,
        &seller.id,
        body.establishments.as_deref(),
        body.transfer_on,
        &mut faults,
    )?;
    ApiError::refused(faults)?;
    let buyer = db::payors::get(conn, municipality_id, &body.to_payor)?
        .ok_or(ApiError::NotFound("payor"))?;
    if let Some(closed) = buyer.closed_on
        && closed <= body.transfer_on
    {
        return Err(ApiError::RuleConflict(FieldError::new(
            "to_payor",
            "buyer_closed",
            format!("the buyer closed on {closed}: it takes no establishment from then"),
        )));
    }
    if rows.is_empty() {
        return Err(ApiError::RuleConflict(FieldError::new(
            "establishments",
            "not_open_at_seller",
            format!(
                "the seller has no establishment open on {}",
                body.transfer_on
            ),
        )));
    }
    if let Some(closed) = rows
        .iter()
        .find(|e| e.closed_on.is_some_and(|c| c <= body.transfer_on))
    {
        return Err(ApiError::RuleConflict(FieldError::new(
            "establishments",
            "not_open_at_seller",
            format!(
                "establishment {} is closed at the seller on {}: it cannot pass on that date",
                closed.id, body.transfer_on
            ),
        )));
    }
    let succession = succession(conn, ctx, &seller.id, body.transfer_on, today)?;
    let actor = Actor::of(ctx)?;
    let now = db::identity::now();
    let transfer_id = db::identity::new_id();
    let mut moved = Vec::new();
    for mut old in rows {
        let read = old.version;
        old.closed_on = Some(body.transfer_on);
        old.version = read + 1;
        old.updated_at = now;
        if !db::payors::update_establishment(conn, &old, read)? {
            return Err(ApiError::Conflict(
                "the establishment changed while it was being transferred: try again".into(),
            ));
        }
        actor.log_write(conn, ctx, "establishment", &old.id, "close")?;
        let new = EstablishmentRow {
            municipality_id,
            id: db::identity::new_id(),
            payor_id: buyer.id.clone(),
            name: old.name.clone(),
            address: old.address.clone(),
            kind: old.kind.clone(),
            units: old.units,
            opened_on: Some(body.transfer_on),
            closed_on: None,
            version: 1,
            created_at: now,
            updated_at: now,
        };
        db::payors::insert_establishment(conn, &new)?;
        actor.log_write(conn, ctx, "establishment", &new.id, "create")?;
        moved.push((
            TransferredRow {
                municipality_id,
                transfer_id: transfer_id.clone(),
                seller_establishment_id: old.id,
                buyer_establishment_id: new.id,
            },
            new.name,
        ));
    }
    db::payors::touch(conn, municipality_id, &seller.id, now)?;
    db::payors::touch(conn, municipality_id, &buyer.id, now)?;
    let row = TransferRow {
        municipality_id,
        id: transfer_id.clone(),
        seller_payor_id: seller.id,
        buyer_payor_id: buyer.id,
        transfer_on: body.transfer_on,
        recorded_by: ctx.caller.actor().to_string(),
        created_at: now,
    };
    let rows: Vec<TransferredRow> = moved.iter().map(|(m, _)| m.clone()).collect();
    db::transfers::insert(conn, &row, &rows)?;
    actor.log_write(conn, ctx, "payor_transfer", &transfer_id, "create")?;
    Ok(RecordedTransfer {
        transfer: Transfer { row, moved },
        succession,
    })
}

/// What the buyer answers for, by the policy in force on `transfer_on`.
fn succession(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    seller_id: &str,
    transfer_on: NaiveDate,
    today: NaiveDate,
) -> Result<Succession, ApiError> {
    let terms = PayorTerms::load(conn, ctx.municipality_id, seller_id)?;
    let policy = terms
        .history
        .governing_on(transfer_on)
        .cloned()
        .map_err(|e| ApiError::from(Invalid(vec![e])))?;
    let Some(rule) = &policy.sale_of_business else {
        return Err(ApiError::Validation(vec![FieldError::new(
            "transfer_on",
            "no_sale_provision",
            format!("{}: no sale-of-business provision", policy.title),
        )]));
    };
    match rule.value.provision {
        SaleProvision::SuccessorLiable => Ok(Succession::SuccessorLiable(
            clearance::successor_liability(conn, ctx, seller_id, transfer_on, today)?,
        )),
        SaleProvision::ClearanceCertificate => {
            let certificate = db::clearance::of_payor(conn, ctx.municipality_id, seller_id)?
                .into_iter()
                .next_back();
            Ok(Succession::ClearanceCertificate(ClearanceStatus {
                certificate,
                withholding_duty: WITHHOLDING_DUTY.to_owned(),
                citation: rule.citation.to_string(),
            }))
        }
    }
}

/// The transfers in which the payor sold or bought (see the module doc).
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
) -> Result<Vec<Transfer>, ApiError> {
    ctx.require(Action::EnforceCollection)?;
    let municipality_id = ctx.municipality_id;
    db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let mut out = Vec::new();
    for row in db::transfers::of_payor(conn, municipality_id, payor_id)? {
        let mut moved = Vec::new();
        for m in db::transfers::moved_by(conn, municipality_id, &row.id)? {
            let name = db::payors::establishment(conn, municipality_id, &m.buyer_establishment_id)?
                .map(|e| e.name)
                .unwrap_or_default();
            moved.push((m, name));
        }
        out.push(Transfer { row, moved });
    }
    let basis = ctx.account_reader(payor_id)?;
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        municipality_id,
        &actor.reader(&basis),
        "payor",
        payor_id,
    )?;
    Ok(out)
}
