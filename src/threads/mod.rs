//! The persistent pool of searcher threads (lazy SMP).
//!
//! Threads are created when `Threads` changes and parked on a channel between searches; each
//! owns its [`Worker`] (allocated on its own thread). For a search, every worker runs iterative
//! deepening on the same root and shares the transposition table. Worker 0 is the main
//! searcher: it keeps time and prints `info`; when it is done it stops the helpers, waits for
//! them, and hands the voted result to the `on_done` callback.

use crate::search::{Job, ThreadResult, Worker, select};
use crate::tt::Table;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Called once per search with the chosen result (`None` when there was no legal move).
pub type OnDone = Box<dyn FnOnce(Option<ThreadResult>) + Send>;

/// One search as the pool runs it.
pub struct PoolJob {
    pub job: Job,
    results: Mutex<Vec<Option<ThreadResult>>>,
    active: AtomicUsize,
    on_done: Mutex<Option<OnDone>>,
}

enum Msg {
    Search(Arc<PoolJob>),
    /// Zero part `index` of `parts` of the table, then acknowledge.
    ClearTable {
        tt: Arc<Table>,
        index: usize,
        parts: usize,
        done: Sender<()>,
    },
    Quit,
}

pub struct Pool {
    senders: Vec<Sender<Msg>>,
    handles: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `threads` parked worker threads.
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        let threads = threads.max(1);
        let mut senders = Vec::with_capacity(threads);
        let mut handles = Vec::with_capacity(threads);
        for id in 0..threads {
            let (tx, rx) = unbounded();
            let h = std::thread::Builder::new()
                .name(format!("lazuli-search-{id}"))
                .stack_size(16 << 20)
                .spawn(move || worker_loop(id, rx))?;
            senders.push(tx);
            handles.push(h);
        }
        Ok(Pool { senders, handles })
    }

    pub fn threads(&self) -> usize {
        self.senders.len()
    }

    /// Zeroes the table in parallel on the pool's own threads (each touches its share of the
    /// pages first) and returns when all are done. Only between searches.
    pub fn clear_table(&self, tt: &Arc<Table>) {
        let (done, acks) = unbounded();
        let parts = self.senders.len();
        let mut sent = 0;
        for (index, tx) in self.senders.iter().enumerate() {
            let msg = Msg::ClearTable {
                tt: tt.clone(),
                index,
                parts,
                done: done.clone(),
            };
            if tx.send(msg).is_ok() {
                sent += 1;
            } else {
                tt.clear_part(index, parts);
            }
        }
        for _ in 0..sent {
            let _ = acks.recv();
        }
    }

    /// Wakes every worker on `job`; `on_done` runs on the main worker's thread at the end.
    pub fn start(&self, job: Job, on_done: OnDone) {
        let n = self.senders.len();
        let pj = Arc::new(PoolJob {
            job,
            results: Mutex::new(vec![None; n]),
            active: AtomicUsize::new(n),
            on_done: Mutex::new(Some(on_done)),
        });
        for tx in &self.senders {
            // A send fails only if the worker died; the search then runs without it.
            if tx.send(Msg::Search(pj.clone())).is_err() {
                pj.active.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for tx in &self.senders {
            let _ = tx.send(Msg::Quit);
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn worker_loop(id: usize, rx: Receiver<Msg>) {
    let mut worker = Worker::new(id);
    while let Ok(msg) = rx.recv() {
        let pj = match msg {
            Msg::Search(pj) => pj,
            Msg::ClearTable {
                tt,
                index,
                parts,
                done,
            } => {
                tt.clear_part(index, parts);
                let _ = done.send(());
                continue;
            }
            Msg::Quit => break,
        };
        let result = worker.search(&pj.job);
        if let Ok(mut r) = pj.results.lock() {
            r[id] = Some(result);
        }
        if id != 0 {
            pj.active.fetch_sub(1, Ordering::AcqRel);
            continue;
        }
        // Main worker: stop the helpers and wait for their results.
        pj.job.control.stop.store(true, Ordering::Relaxed);
        while pj.active.load(Ordering::Acquire) > 1 {
            std::thread::yield_now();
        }
        let chosen = pj.results.lock().ok().and_then(|r| {
            let all: Vec<ThreadResult> = r.iter().flatten().cloned().collect();
            select(&all).cloned()
        });
        let done = pj.on_done.lock().ok().and_then(|mut d| d.take());
        pj.active.fetch_sub(1, Ordering::AcqRel);
        if let Some(done) = done {
            done(chosen);
        }
    }
}
