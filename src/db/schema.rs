//! Diesel table definitions, one portable schema for SQLite and PostgreSQL.
//!
//! Contract: written by hand to match `migrations/*/up.sql` (both backends
//! run the whole test suite against it, so a mismatch fails loudly). Only
//! portable column types: BigInt (ids, cents), Integer, Text, Date, Timestamp.
//! New rows get UUID text ids; tenant-owned tables lead keys with the tenant.

diesel::table! {
    /// Tourism zones (tenant roots).
    zones (id) {
        id -> BigInt,
        slug -> Text,
        name -> Text,
        county -> Text,
        commission_name -> Text,
        tourism_entity_name -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Municipalities (the tenants).
    municipalities (id) {
        id -> BigInt,
        slug -> Text,
        name -> Text,
        kind -> Text,
        county -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Effective-dated membership of a municipality in a zone.
    zone_memberships (zone_id, municipality_id, joined_on) {
        zone_id -> BigInt,
        municipality_id -> BigInt,
        joined_on -> Date,
        left_on -> Nullable<Date>,
    }
}

diesel::table! {
    /// Effective-dated policy versions; `document` is the policy JSON.
    policy_versions (municipality_id, effective_from) {
        municipality_id -> BigInt,
        effective_from -> Date,
        document -> Text,
        source -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// People who sign in (global; their grants are per tenant).
    users (id) {
        id -> Text,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        created_at -> Timestamp,
        deleted_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Payors: the businesses that owe the tax (confidential).
    payors (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        legal_name -> Text,
        dba -> Nullable<Text>,
        contact_name -> Nullable<Text>,
        contact_email -> Nullable<Text>,
        contact_phone -> Nullable<Text>,
        mailing_address -> Text,
        seller_permit -> Nullable<Text>,
        annual_election -> Text,
        fiscal_year_end_month -> Nullable<Integer>,
        closed_on -> Nullable<Date>,
        version -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        legal_name_key -> Text,
    }
}

diesel::table! {
    /// Lodging places a payor runs (confidential).
    establishments (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        name -> Text,
        address -> Text,
        kind -> Text,
        units -> Integer,
        opened_on -> Nullable<Date>,
        closed_on -> Nullable<Date>,
        version -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// Municipality-scoped role grants.
    municipality_grants (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        user_id -> Text,
        role -> Text,
        payor_id -> Nullable<Text>,
        created_at -> Timestamp,
        created_by -> Nullable<Text>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Zone-scoped role grants.
    zone_grants (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        user_id -> Text,
        role -> Text,
        created_at -> Timestamp,
        created_by -> Nullable<Text>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Web portal sessions, stored as digests of the cookie's secret.
    web_sessions (id) {
        id -> Text,
        user_id -> Text,
        digest -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Refresh tokens, stored as digests, chained in families.
    refresh_tokens (id) {
        id -> Text,
        user_id -> Text,
        family_id -> Text,
        digest -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// OAuth2 client-credentials apps, each bound to one municipality or zone.
    api_clients (id) {
        id -> Text,
        municipality_id -> Nullable<BigInt>,
        zone_id -> Nullable<BigInt>,
        name -> Text,
        secret_digest -> Text,
        scopes -> Text,
        created_at -> Timestamp,
        created_by -> Text,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Court orders and legal duties granting read access to named payors.
    disclosure_grants (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        reference -> Text,
        basis -> Text,
        grantee_user_id -> Text,
        expires_at -> Timestamp,
        created_at -> Timestamp,
        created_by -> Text,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// The payors a disclosure grant covers.
    disclosure_grant_payors (municipality_id, grant_id, payor_id) {
        municipality_id -> BigInt,
        grant_id -> Text,
        payor_id -> Text,
    }
}

diesel::table! {
    /// Append-only log of every read of a confidential record.
    access_log (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        at -> Timestamp,
        actor_kind -> Text,
        actor_id -> Text,
        basis -> Text,
        record_type -> Text,
        record_id -> Text,
        action -> Text,
        request_id -> Text,
    }
}

diesel::joinable!(zone_memberships -> zones (zone_id));
diesel::joinable!(zone_memberships -> municipalities (municipality_id));
diesel::joinable!(policy_versions -> municipalities (municipality_id));

diesel::allow_tables_to_appear_in_same_query!(
    zones,
    municipalities,
    zone_memberships,
    policy_versions
);

diesel::table! {
    /// Invitations of a municipality into a zone, answered by its clerk-treasurer.
    zone_invitations (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        municipality_id -> BigInt,
        proposed_joined_on -> Nullable<Date>,
        status -> Text,
        invited_by -> Text,
        invited_at -> Timestamp,
        answered_by -> Nullable<Text>,
        answered_at -> Nullable<Timestamp>,
        joined_on -> Nullable<Date>,
    }
}

diesel::joinable!(zone_invitations -> zones (zone_id));
diesel::joinable!(zone_invitations -> municipalities (municipality_id));
diesel::allow_tables_to_appear_in_same_query!(zone_invitations, zones);
diesel::allow_tables_to_appear_in_same_query!(zone_invitations, municipalities);

diesel::table! {
    /// Returns: one per payor and period; the header never changes.
    tax_returns (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        period -> Text,
        kind -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Every version of a return as filed (append-only); money in cents, the
    /// filing's details and the engine's assessment as JSON text.
    return_versions (municipality_id, return_id, version) {
        municipality_id -> BigInt,
        return_id -> Text,
        version -> BigInt,
        source -> Text,
        filed_on -> Date,
        received_on -> Nullable<Date>,
        entered_by -> Text,
        entered_as -> Text,
        gross_receipts_cents -> BigInt,
        exempt_receipts_cents -> BigInt,
        tax_cents -> BigInt,
        amount_due_cents -> BigInt,
        policy_version -> Date,
        filing -> Text,
        assessment -> Text,
        created_at -> Timestamp,
        due_date -> Date,
        filing_due_date -> Date,
    }
}

// A clerk's view of a period reads the versions of the period's returns.
diesel::allow_tables_to_appear_in_same_query!(tax_returns, return_versions);
// ...and, for its missing returns, only the payors with no return for the period.
diesel::allow_tables_to_appear_in_same_query!(payors, tax_returns);
// ...with each one's first opening, from its establishments.
diesel::allow_tables_to_appear_in_same_query!(payors, establishments);

diesel::table! {
    /// Documents attached to a return (append-only), bytes in the database.
    return_attachments (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        return_id -> Text,
        kind -> Text,
        content_type -> Text,
        size_bytes -> BigInt,
        sha256 -> Text,
        content -> Binary,
        uploaded_by -> Text,
        uploaded_at -> Timestamp,
    }
}

diesel::table! {
    /// Requests to extend the time to file a payor's return, and their decisions.
    return_extensions (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        period -> Text,
        reason -> Text,
        status -> Text,
        requested_by -> Text,
        requested_at -> Timestamp,
        extended_to -> Nullable<Date>,
        decision_reason -> Nullable<Text>,
        decided_by -> Nullable<Text>,
        decided_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Marketplace providers' reports per municipality and period (no addresses).
    marketplace_reports (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        provider_user_id -> Text,
        period -> Text,
        gross_receipts_cents -> BigInt,
        exempt_receipts_cents -> BigInt,
        nights -> BigInt,
        tax_collected_cents -> BigInt,
        tax_owed_cents -> BigInt,
        difference_cents -> BigInt,
        policy_version -> Date,
        assessment -> Text,
        filed_on -> Date,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Idempotency-Key claims and the responses they replay.
    idempotency_keys (municipality_id, actor, idem_key) {
        municipality_id -> BigInt,
        actor -> Text,
        idem_key -> Text,
        fingerprint -> Text,
        state -> Text,
        response_status -> Nullable<Integer>,
        response_location -> Nullable<Text>,
        response_body -> Nullable<Text>,
        created_at -> Timestamp,
        response_etag -> Nullable<Text>,
    }
}

diesel::table! {
    /// Ledger journals (append-only): one posting with its cause.
    ledger_journals (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        posted_on -> Date,
        kind -> Text,
        cause_type -> Text,
        cause_id -> Text,
        memo -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Ledger lines (append-only): signed integer cents, debit positive.
    ledger_lines (municipality_id, journal_id, line_no) {
        municipality_id -> BigInt,
        journal_id -> Text,
        line_no -> Integer,
        account -> Text,
        amount_cents -> BigInt,
    }
}

diesel::table! {
    /// Payments received (append-only): what settled them is their journal.
    payments (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        received_on -> Date,
        amount_cents -> BigInt,
        method -> Text,
        reference -> Text,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::allow_tables_to_appear_in_same_query!(ledger_journals, ledger_lines);
// A statement reads the reversals of the payor's payments.
diesel::allow_tables_to_appear_in_same_query!(ledger_journals, payments);

diesel::table! {
    /// Written notices (append-only): the document's content as JSON.
    notices (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        kind -> Text,
        issued_on -> Date,
        title -> Text,
        content -> Text,
        journal_id -> Nullable<Text>,
        cause_type -> Text,
        cause_id -> Text,
        issued_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Determinations (append-only): audits, non-filer estimates, fraud findings.
    determinations (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        kind -> Text,
        period -> Text,
        determined_on -> Date,
        basis -> Text,
        tax_charged_cents -> BigInt,
        estimate_penalty_cents -> BigInt,
        fraud_penalty_cents -> BigInt,
        content -> Text,
        journal_id -> Text,
        notice_id -> Text,
        determined_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Refunds of credit (append-only): what they posted is their journal.
    refunds (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        period -> Text,
        return_id -> Text,
        refunded_on -> Date,
        amount_cents -> BigInt,
        interest_cents -> BigInt,
        method -> Text,
        reference -> Text,
        overpayment_intentional_or_careless -> Bool,
        return_incomplete -> Bool,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The document of each notice as sent (append-only): the PDF rendered when issued.
    notice_documents (municipality_id, notice_id) {
        municipality_id -> BigInt,
        notice_id -> Text,
        media_type -> Text,
        bytes -> Binary,
        sha256 -> Text,
    }
}

diesel::table! {
    /// Security deposits required of payors (append-only; Montello).
    security_deposits (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        amount_cents -> BigInt,
        reason -> Text,
        required_on -> Date,
        notice_id -> Text,
        required_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// What happened to a security deposit (append-only events).
    security_events (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        deposit_id -> Text,
        kind -> Text,
        occurred_on -> Date,
        amount_cents -> BigInt,
        reference -> Text,
        journal_id -> Nullable<Text>,
        notice_id -> Nullable<Text>,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Clearance certificates on the sale of a business (append-only; Montello).
    clearance_certificates (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        payor_id -> Text,
        kind -> Text,
        code_hash -> Text,
        public_name -> Text,
        issued_on -> Date,
        notice_id -> Text,
        issued_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// What the DOT remitted of Montello's vehicle registration fee for a quarter,
    /// one row per version (append-only).
    vehicle_fee_remittances (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        period -> Text,
        version -> Integer,
        vehicle_count -> BigInt,
        fee_per_vehicle_cents -> BigInt,
        retention_per_vehicle_cents -> BigInt,
        policy_effective_from -> Date,
        received_cents -> BigInt,
        posted_cents -> BigInt,
        received_on -> Date,
        reference -> Text,
        reason -> Nullable<Text>,
        journal_id -> Text,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Spending from the vehicle registration fee fund (append-only).
    vehicle_fee_spending (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        spent_on -> Date,
        amount_cents -> BigInt,
        payee -> Text,
        purpose -> Text,
        description -> Text,
        journal_id -> Text,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Reversals of vehicle fee spending recorded in error (append-only; one per spending).
    vehicle_fee_spending_reversals (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        spending_id -> Text,
        reversed_on -> Date,
        reason -> Text,
        journal_id -> Text,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Versions of a municipality's quarterly remittance to its zone (append-only).
    remittances (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        zone_id -> BigInt,
        period -> Text,
        version -> Integer,
        source -> Text,
        gross_receipts_cents -> BigInt,
        tax_collected_cents -> BigInt,
        payor_count -> Integer,
        commission_share -> Text,
        commission_cents -> BigInt,
        retained_cents -> BigInt,
        commission_difference_cents -> BigInt,
        submitted_on -> Date,
        submitted_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The commission's share of a remittance version marked paid (append-only).
    remittance_transfers (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        remittance_id -> Text,
        zone_id -> BigInt,
        period -> Text,
        paid_on -> Date,
        amount_cents -> BigInt,
        method -> Text,
        reference -> Text,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Transfers of a payor's establishments to another payor (append-only).
    payor_transfers (municipality_id, id) {
        municipality_id -> BigInt,
        id -> Text,
        seller_payor_id -> Text,
        buyer_payor_id -> Text,
        transfer_on -> Date,
        recorded_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The establishments a transfer moved: the seller's row and the buyer's.
    payor_transfer_establishments (municipality_id, transfer_id, seller_establishment_id) {
        municipality_id -> BigInt,
        transfer_id -> Text,
        seller_establishment_id -> Text,
        buyer_establishment_id -> Text,
    }
}

diesel::table! {
    /// Expenditure reports of a zone's tourism entity (identity only; append-only).
    expenditure_reports (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        created_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// One version of an expenditure report (append-only).
    expenditure_report_versions (zone_id, report_id, version) {
        zone_id -> BigInt,
        report_id -> Text,
        version -> BigInt,
        period_start -> Date,
        period_end -> Date,
        received_declared_cents -> BigInt,
        filed_by -> Text,
        filed_at -> Timestamp,
    }
}

diesel::table! {
    /// Expenditures listed individually on a report version (append-only).
    expenditure_items (zone_id, report_id, version, line) {
        zone_id -> BigInt,
        report_id -> Text,
        version -> BigInt,
        line -> BigInt,
        spent_on -> Date,
        payee -> Text,
        amount_cents -> BigInt,
        category -> Text,
        description -> Text,
        explanation -> Nullable<Text>,
    }
}

diesel::table! {
    /// Impact measures of an expenditure item (append-only).
    expenditure_impacts (zone_id, report_id, version, line, seq) {
        zone_id -> BigInt,
        report_id -> Text,
        version -> BigInt,
        line -> BigInt,
        seq -> BigInt,
        measure -> Text,
        value -> BigInt,
        source -> Text,
    }
}

diesel::table! {
    /// Expenditures under $1,000 summed by category (append-only).
    expenditure_sums (zone_id, report_id, version, line) {
        zone_id -> BigInt,
        report_id -> Text,
        version -> BigInt,
        line -> BigInt,
        category -> Text,
        amount_cents -> BigInt,
        item_count -> BigInt,
        description -> Text,
        explanation -> Nullable<Text>,
    }
}

diesel::table! {
    /// The commission's review acts and the tourism entity's answers (append-only).
    expenditure_reviews (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        report_id -> Text,
        seq -> BigInt,
        version -> BigInt,
        act -> Text,
        item_line -> Nullable<BigInt>,
        answers -> Nullable<Text>,
        text -> Nullable<Text>,
        by_actor -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    /// Receipts and invoices attached to an expenditure report (append-only).
    expenditure_attachments (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        report_id -> Text,
        kind -> Text,
        content_type -> Text,
        size_bytes -> BigInt,
        sha256 -> Text,
        content -> Binary,
        uploaded_by -> Text,
        uploaded_at -> Timestamp,
    }
}

diesel::table! {
    /// A zone's append-only access log (reads of expenditure attachments).
    zone_access_log (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        at -> Timestamp,
        actor_kind -> Text,
        actor_id -> Text,
        basis -> Text,
        record_type -> Text,
        record_id -> Text,
        action -> Text,
        request_id -> Text,
    }
}

diesel::table! {
    /// Member municipalities' requests to inspect records (append-only).
    inspection_requests (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        municipality_id -> BigInt,
        records_of -> Text,
        requested_on -> Date,
        records -> Text,
        requested_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Answers to inspection requests (one per request; append-only).
    inspection_answers (zone_id, request_id) {
        zone_id -> BigInt,
        request_id -> Text,
        answered_on -> Date,
        inspection_on -> Nullable<Date>,
        answer -> Text,
        answered_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The commission roster (append-only; ends in commission_roster_ends).
    commission_roster (zone_id, id) {
        zone_id -> BigInt,
        id -> Text,
        name -> Text,
        affiliation -> Text,
        represents_lodging_and_tourism_industry -> Bool,
        appointed_by -> BigInt,
        term_start -> Date,
        created_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The end of a commission membership (one per member; append-only).
    commission_roster_ends (zone_id, member_id) {
        zone_id -> BigInt,
        member_id -> Text,
        term_end -> Date,
        ended_by -> Text,
        ended_at -> Timestamp,
    }
}
