//! roomtax: municipal room tax (lodging tax) administration for Wisconsin
//! municipalities and tourism zones.
//!
//! Layers: [`domain`] holds the pure rules (no I/O); [`db`] stores; [`usecases`]
//! is the one application layer every transport calls; [`api`] speaks HTTP
//! through thin handlers; [`error`] maps every failure to RFC 9457
//! problem details in one place; [`app`] builds the server from [`config::Settings`].

pub mod api;
pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod db;
pub mod demo;
pub mod domain;
pub mod error;
pub mod head_guard;
pub mod render;
pub mod request_context;
pub mod telemetry;
pub mod tenancy;
pub mod turnstile;
pub mod usecases;
pub mod web;
