//! The UCI layer: parsing (pure), the options table, and the coordinator that owns the
//! engine state. Only this module writes to stdout, one whole line at a time.

pub mod config;
pub mod coordinator;
pub mod options;
pub mod parse;

use parking_lot::Mutex;
use std::io::Write;
use std::sync::Arc;

/// The one writer: whole lines, flushed at once, from any thread.
#[derive(Clone)]
pub struct Out {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out {
            inner: Arc::new(Mutex::new(w)),
        }
    }

    pub fn line(&self, s: &str) {
        let mut w = self.inner.lock();
        // A closed stdout (the GUI went away) is not worth a panic.
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}
