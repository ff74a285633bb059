//! Scheduling priority of background threads.

/// The nice value of background work: the lowest priority there is, so work at
/// normal priority (a search, a question, the UI) always runs first.
const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread (alone) to the background priority. Linux keeps a
/// nice value per thread; elsewhere this does nothing. Failing is harmless: the
/// work then runs at the priority it had.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority read and set this thread's own attributes.
        unsafe {
            let tid = libc::gettid();
            let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, BACKGROUND_NICE);
        }
    }
}

/// The calling thread's nice value (Linux), for tests.
pub fn this_thread_nice() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: as above. getpriority may return -1 as a value; errno tells.
        unsafe {
            let tid = libc::gettid();
            *libc::__errno_location() = 0;
            let nice = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
            (*libc::__errno_location() == 0).then_some(nice)
        }
    }
    #[cfg(not(target_os = "linux"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_calling_thread_is_lowered() {
        let before = this_thread_nice();
        let lowered = std::thread::spawn(|| {
            lower_this_thread();
            this_thread_nice()
        })
        .join()
        .expect("thread");
        if cfg!(target_os = "linux") {
            assert_eq!(lowered, Some(BACKGROUND_NICE));
            assert_eq!(this_thread_nice(), before, "the caller keeps its priority");
        }
    }
}
