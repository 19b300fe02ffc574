//! A gate that lets a given number of blocking threads through at once and
//! wakes the next waiter as soon as one leaves: the Argon2 computations
//! (`auth::password`, as many as there are cores) and the writers of a
//! SQLite database (`db::Db`, one at a time: the service's write units, which
//! run on the writers' own thread, and the access log's appender).
//!
//! Why not the database's own waiting for SQLite: a writer that finds the
//! write lock taken is put to sleep by SQLite's busy handler for 1, 2, 5, 10
//! ... up to 100 ms between tries, however soon the lock is released, so
//! under load writers slept while the lock stood free. Measured at 32
//! connections (bench, release build): a filing's p99 was 1.4 s at 547/s.
//! Waiting here, in the process, the next writer starts the moment the last
//! one ends.

use std::{
    sync::{Condvar, Mutex},
    time::{Duration, Instant},
};

/// The gate: how many are through, and the signal that one left.
#[derive(Debug, Default)]
pub struct Turnstile {
    through: Mutex<usize>,
    left: Condvar,
}

/// One passage through a [`Turnstile`]; leaving is dropping it.
#[derive(Debug)]
pub struct Turn<'a>(&'a Turnstile);

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut through = self.0.through.lock().unwrap_or_else(|p| p.into_inner());
        *through -= 1;
        self.0.left.notify_one();
    }
}

impl Turnstile {
    /// An empty gate.
    pub const fn new() -> Self {
        Self {
            through: Mutex::new(0),
            left: Condvar::new(),
        }
    }

    /// Pass when fewer than `at_once` are through, waiting (this thread
    /// blocks) at most `patience` (`None`: as long as it takes); `None` when
    /// the patience ran out.
    pub fn enter(&self, at_once: usize, patience: Option<Duration>) -> Option<Turn<'_>> {
        let deadline = patience.map(|p| Instant::now() + p);
        let mut through = self.through.lock().unwrap_or_else(|p| p.into_inner());
        while *through >= at_once.max(1) {
            through = match deadline {
                None => self.left.wait(through).unwrap_or_else(|p| p.into_inner()),
                Some(deadline) => {
                    let left = deadline.checked_duration_since(Instant::now())?;
                    self.left
                        .wait_timeout(through, left)
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            };
        }
        *through += 1;
        Some(Turn(self))
    }
}

#[cfg(test)]
mod tests {
    use std::{
        sync::{
            Arc,
            atomic::{AtomicUsize, Ordering},
        },
        thread,
    };

    use super::*;

    #[test]
    fn no_more_than_at_once_pass_and_the_rest_follow() {
        let gate = Arc::new(Turnstile::new());
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (gate, inside, most) = (gate.clone(), inside.clone(), most.clone());
                thread::spawn(move || {
                    let _turn = gate.enter(2, None).expect("no patience limit");
                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    thread::sleep(Duration::from_millis(5));
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
        assert_eq!(*gate.through.lock().unwrap(), 0, "all left");
    }

    #[test]
    fn patience_runs_out_while_the_gate_is_full() {
        let gate = Turnstile::new();
        let first = gate.enter(1, None).unwrap();
        let started = Instant::now();
        assert!(gate.enter(1, Some(Duration::from_millis(20))).is_none());
        assert!(started.elapsed() >= Duration::from_millis(20));
        drop(first);
        assert!(gate.enter(1, Some(Duration::from_millis(20))).is_some());
    }
}
