//! The persistent pool of searcher threads (lazy SMP).
//!
//! Threads are created when `Threads` changes and parked on a channel between searches; each
//! owns its [`Worker`] (allocated on its own thread). For a search, every worker runs iterative
//! deepening on the same root and shares the transposition table. Worker 0 is the main
//! searcher: it keeps time and prints `info`; when it is done it stops the helpers, waits for
//! them (at most `HELPER_WAIT`), and hands the voted result to the `on_done` callback.

pub mod numa;

use crate::search::{Job, ThreadResult, Worker, select};
use crate::tt::Table;
use crossbeam_channel::{Receiver, Sender, unbounded};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the main searcher waits for the helpers' results once it has decided to stop.
const HELPER_WAIT: Duration = Duration::from_millis(2);

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
    /// Acknowledge: every message before this one (a search) is finished.
    Sync(Sender<()>),
    /// Work on part `index` of `parts` of the table, then acknowledge.
    Table {
        tt: Arc<Table>,
        work: TableWork,
        index: usize,
        parts: usize,
        done: Sender<()>,
    },
    Quit,
}

/// What to do with a part of the table.
#[derive(Clone, Copy)]
enum TableWork {
    /// Zero it at memory speed: only when every worker is idle.
    Clear,
    /// Touch its pages (a fresh table: already zero).
    Prefault,
}

pub struct Pool {
    senders: Vec<Sender<Msg>>,
    handles: Vec<JoinHandle<()>>,
    /// How many workers are bound to a core.
    bound: Arc<AtomicUsize>,
}

impl Pool {
    /// Starts `threads` parked worker threads, bound to cores as `NumaPolicy` `auto` says.
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        Pool::with_policy(threads, numa::Policy::Auto)
    }

    /// Starts `threads` parked worker threads, bound to cores as `policy` says for this
    /// machine's NUMA layout. Each worker binds itself first, then allocates its own data.
    pub fn with_policy(threads: usize, policy: numa::Policy) -> std::io::Result<Pool> {
        let threads = threads.max(1);
        let plan = numa::Layout::system().plan(threads, policy);
        let bound = Arc::new(AtomicUsize::new(0));
        let mut senders = Vec::with_capacity(threads);
        let mut handles = Vec::with_capacity(threads);
        for (id, cpu) in plan.into_iter().enumerate() {
            let (tx, rx) = unbounded();
            let bound = bound.clone();
            let h = std::thread::Builder::new()
                .name(format!("lazuli-search-{id}"))
                .stack_size(16 << 20)
                .spawn(move || {
                    if let Some(cpu) = cpu
                        && core_affinity::set_for_current(core_affinity::CoreId { id: cpu })
                    {
                        bound.fetch_add(1, Ordering::Relaxed);
                    }
                    worker_loop(id, rx)
                })?;
            senders.push(tx);
            handles.push(h);
        }
        let pool = Pool {
            senders,
            handles,
            bound,
        };
        // Every worker has bound itself and built its `Worker` once it answers.
        pool.sync();
        Ok(pool)
    }

    pub fn threads(&self) -> usize {
        self.senders.len()
    }

    /// How many workers are bound to a core (0 unless `NumaPolicy` asked for binding and the
    /// OS agreed).
    pub fn bound_threads(&self) -> usize {
        self.bound.load(Ordering::Relaxed)
    }

    /// Returns once every worker has handled every message sent to it before.
    fn sync(&self) {
        let (done, acks) = unbounded();
        let synced = self
            .senders
            .iter()
            .filter(|tx| tx.send(Msg::Sync(done.clone())).is_ok())
            .count();
        for _ in 0..synced {
            let _ = acks.recv();
        }
    }

    /// Zeroes the table in parallel on the pool's own threads and returns when all are done.
    /// Only between searches: it first waits until every worker has finished its last search
    /// (a helper may still be stopping, see `HELPER_WAIT`), so nothing reads or writes the
    /// table while it is cleared at memory speed.
    pub fn clear_table(&self, tt: &Arc<Table>) {
        self.sync();
        // A worker that cannot be reached has died (its thread is gone), so it cannot touch
        // the table either; its part is cleared here.
        self.on_table(tt, TableWork::Clear);
    }

    /// Faults in the pages of a new (zeroed) table in parallel, each worker the part it will
    /// mostly use first, so that the search does not pay for it.
    pub fn prefault_table(&self, tt: &Arc<Table>) {
        self.on_table(tt, TableWork::Prefault);
    }

    fn on_table(&self, tt: &Arc<Table>, work: TableWork) {
        let (done, acks) = unbounded();
        let parts = self.senders.len();
        let mut sent = 0;
        for (index, tx) in self.senders.iter().enumerate() {
            let msg = Msg::Table {
                tt: tt.clone(),
                work,
                index,
                parts,
                done: done.clone(),
            };
            if tx.send(msg).is_ok() {
                sent += 1;
            } else {
                table_work(tt, work, index, parts);
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
            Msg::Sync(done) => {
                let _ = done.send(());
                continue;
            }
            Msg::Table {
                tt,
                work,
                index,
                parts,
                done,
            } => {
                table_work(&tt, work, index, parts);
                let _ = done.send(());
                continue;
            }
            Msg::Quit => break,
        };
        let result = worker.search(&pj.job);
        pj.results.lock()[id] = Some(result);
        if id != 0 {
            pj.active.fetch_sub(1, Ordering::AcqRel);
            continue;
        }
        // Main worker: stop the helpers and wait for their results, but not for long. A
        // helper sees `stop` within 64 nodes of running, so on an idle machine all are in at
        // once; on a loaded one a helper may wait a scheduler time slice or more before it runs
        // again, while the clock runs. A result not in after `HELPER_WAIT` is left out of the
        // vote (the helper stops when it next runs, then takes its next message in order).
        pj.job.control.stop.store(true, Ordering::Relaxed);
        let waiting = Instant::now();
        while pj.active.load(Ordering::Acquire) > 1 && waiting.elapsed() < HELPER_WAIT {
            std::thread::yield_now();
        }
        let chosen = {
            let all: Vec<ThreadResult> = pj.results.lock().iter().flatten().cloned().collect();
            select(&all).cloned()
        };
        if let Some(r) = &chosen {
            worker.final_report(&pj.job, r);
        }
        let done = pj.on_done.lock().take();
        pj.active.fetch_sub(1, Ordering::AcqRel);
        if let Some(done) = done {
            done(chosen);
        }
    }
}

fn table_work(tt: &Table, work: TableWork, index: usize, parts: usize) {
    match work {
        // SAFETY: `Clear` is sent only by `Pool::clear_table`, after every worker answered a
        // `Sync` (so each has finished its searches, and no search starts until the coordinator,
        // which is waiting here, starts one); only the parts of this clear touch the table.
        TableWork::Clear => unsafe { tt.clear_part_exclusive(index, parts) },
        TableWork::Prefault => tt.prefault_part(index, parts),
    }
}
