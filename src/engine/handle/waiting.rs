//! Counts the threads waiting for the engine's lock, so that other work can wait
//! (without polling) until none does: a sync step lets waiting reads go first, and
//! embedding lets a waiting sync step go first.

use std::sync::{Condvar, Mutex, MutexGuard};

#[derive(Default)]
pub(super) struct Waiting {
    count: Mutex<usize>,
    none: Condvar,
}

/// One waiting thread, counted for as long as it lives.
pub(super) struct Waits<'a>(&'a Waiting);

impl Waiting {
    fn count(&self) -> MutexGuard<'_, usize> {
        self.count.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts the caller as waiting until the returned value is dropped.
    pub(super) fn enter(&self) -> Waits<'_> {
        *self.count() += 1;
        Waits(self)
    }

    /// Returns once no thread is counted.
    pub(super) fn until_none(&self) {
        let mut count = self.count();
        while *count > 0 {
            count = self.none.wait(count).unwrap_or_else(|p| p.into_inner());
        }
    }
}

impl Drop for Waits<'_> {
    fn drop(&mut self) {
        let mut count = self.0.count();
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.0.none.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn until_none_returns_when_the_last_waiter_leaves() {
        let waiting = Waiting::default();
        waiting.until_none();
        let left = AtomicBool::new(false);
        std::thread::scope(|s| {
            let (a, b) = (waiting.enter(), waiting.enter());
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(30));
                drop(a);
                std::thread::sleep(Duration::from_millis(30));
                left.store(true, Ordering::SeqCst);
                drop(b);
            });
            waiting.until_none();
            assert!(
                left.load(Ordering::SeqCst),
                "returned before the last waiter left"
            );
        });
    }
}
