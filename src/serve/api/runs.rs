//! The operations that run long on the engine and answer when they end: a question
//! set's eval and an IMAP sync; and the watch of IMAP accounts, which answers
//! as mail arrives.

use super::{answerer, engine_error, to_value, Api};
use crate::engine::handle::WatchLease;
use crate::engine::{EvalItem, SyncOptions, WatchOptions};
use crate::serve::protocol::{ApiError, ErrorKind, EventKind};
use crate::source::imap::{load_accounts, select_accounts, AccountConfig};
use serde_json::Value;
use std::path::PathBuf;

impl Api {
    /// Asks a question set's items and scores the answers, each item's result an
    /// event as it is scored.
    pub(super) fn eval(
        &self,
        items: &[EvalItem],
        llm: bool,
        on_event: &mut dyn FnMut(EventKind, String),
    ) -> Result<Value, ApiError> {
        let answerer = answerer(llm).map_err(|m| ApiError::new(ErrorKind::Refused, m))?;
        let report = self
            .handle
            .eval(items, answerer.as_ref(), &mut |r| {
                if let Ok(line) = serde_json::to_string(r) {
                    on_event(EventKind::Progress, line);
                }
            })
            .map_err(engine_error)?;
        to_value(&report)
    }

    /// Syncs the accounts of a config file, all or the one named, and answers the
    /// report; every open client then lists the new threads.
    pub(super) fn sync(
        &self,
        config: &str,
        account: Option<&str>,
        batch: Option<usize>,
        retries: Option<u32>,
    ) -> Result<Value, ApiError> {
        let (accounts, opts) = accounts_and_options(config, account, batch, retries)?;
        let report = self.handle.sync(&accounts, &opts).map_err(engine_error)?;
        to_value(&report)
    }

    /// Watches the accounts of a config file, all or the one named, until the
    /// lease is dropped; joins the watch the server runs already. `runtime` is the
    /// server's (multi-thread) runtime.
    pub fn watch(
        &self,
        runtime: &tokio::runtime::Handle,
        config: &str,
        account: Option<&str>,
        batch: Option<usize>,
        retries: Option<u32>,
    ) -> Result<WatchLease, ApiError> {
        let (accounts, sync) = accounts_and_options(config, account, batch, retries)?;
        let opts = WatchOptions {
            sync,
            ..WatchOptions::default()
        };
        Ok(self.handle.watch(runtime, accounts, opts))
    }
}

/// The accounts a sync or a watch asked for, and the options of its syncs.
fn accounts_and_options(
    config: &str,
    account: Option<&str>,
    batch: Option<usize>,
    retries: Option<u32>,
) -> Result<(Vec<AccountConfig>, SyncOptions), ApiError> {
    let path = PathBuf::from(config);
    let accounts = load_accounts(&path)
        .and_then(|a| select_accounts(a, account))
        .map_err(|e| ApiError::new(ErrorKind::BadRequest, e.to_string()))?;
    if accounts.is_empty() {
        return Err(ApiError::new(
            ErrorKind::BadRequest,
            format!("{config} has no [[account]]"),
        ));
    }
    let defaults = SyncOptions::default();
    let opts = SyncOptions {
        batch: batch.unwrap_or(defaults.batch).max(1),
        retries: retries.unwrap_or(defaults.retries),
        ..defaults
    };
    Ok((accounts, opts))
}
