//! How a long job that mostly waits on the network (an IMAP sync) reaches the engine.
//!
//! The CLI owns its engine outright. The engine handle shares it behind a lock with
//! searches and questions, so a sync must not hold it while it waits on a server: it
//! reads its bookkeeping from the store, parses mail without the engine, and borrows
//! the engine for writing only for the steps that store what it fetched.

use crate::engine::Engine;
use crate::store::Store;

pub trait EngineAccess: Send {
    /// The store, for reading (and writing sync bookkeeping) without the engine.
    fn store(&self) -> &Store;

    /// Runs CPU-bound work that needs only the store (parsing a fetched batch), where
    /// blocking is allowed.
    fn compute<T>(&mut self, f: impl FnOnce(&Store) -> T) -> T;

    /// Runs `f` with the engine for writing, waiting until it is free. Keep `f` short:
    /// readers wait while it runs.
    fn write<T>(&mut self, f: impl FnOnce(&mut Engine) -> T) -> T;
}

/// An engine owned by the caller: nobody else waits for it.
impl EngineAccess for Engine {
    fn store(&self) -> &Store {
        &self.store
    }

    fn compute<T>(&mut self, f: impl FnOnce(&Store) -> T) -> T {
        f(&self.store)
    }

    fn write<T>(&mut self, f: impl FnOnce(&mut Engine) -> T) -> T {
        f(self)
    }
}
