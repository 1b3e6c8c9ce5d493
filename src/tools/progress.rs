//! Progress of long tools (`datagen`, `texel`, `train`, `speedtest`) on stderr: a bar with the
//! count, the rate and the time left when stderr is a terminal (`indicatif`); no bar when it is
//! not (a log file or a pipe), where only the tools' sparse log lines appear; nothing at all
//! with `--quiet`. Results go to stdout and are never affected.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

#[derive(Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    /// What `Write` has received past the last newline.
    pending: String,
}

impl Progress {
    /// Progress towards `len` units named `unit` (games, epochs, ...).
    pub fn new(len: u64, unit: &str, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            let template = format!(
                "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}  {{msg}}  ETA {{eta}}"
            );
            let style = ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        Progress {
            bar,
            quiet,
            pending: String::new(),
        }
    }

    /// No bar: only log lines, on stderr unless quiet.
    pub fn lines(quiet: bool) -> Progress {
        Progress {
            bar: None,
            quiet,
            pending: String::new(),
        }
    }

    /// A progress display that never prints (tests, library callers).
    pub fn hidden() -> Progress {
        Progress {
            bar: None,
            quiet: true,
            pending: String::new(),
        }
    }

    /// Whether a bar is being drawn.
    pub fn has_bar(&self) -> bool {
        self.bar.is_some()
    }

    /// Moves the bar to `pos` with `msg` beside it; nothing without a bar.
    pub fn update(&self, pos: u64, msg: String) {
        if let Some(bar) = &self.bar {
            bar.set_position(pos);
            bar.set_message(msg);
        }
    }

    /// Moves the bar to `pos`, keeping its message.
    pub fn advance(&self, pos: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(pos);
        }
    }

    /// A log line: above the bar on a terminal, a plain stderr line otherwise; nothing when
    /// quiet.
    pub fn log(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None if !self.quiet => eprintln!("{line}"),
            None => {}
        }
    }

    /// Leaves a finished bar as it last was; one that stopped short is cleared.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            if bar.length().is_some_and(|len| bar.position() >= len) {
                bar.abandon();
            } else {
                bar.finish_and_clear();
            }
        }
    }
}

impl std::io::Write for Progress {
    /// Every line written here goes through [`Progress::log`] once its newline arrives.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.push_str(&String::from_utf8_lossy(buf));
        while let Some(end) = self.pending.find('\n') {
            let line: String = self.pending.drain(..=end).collect();
            self.log(line.trim_end_matches(['\r', '\n']));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
