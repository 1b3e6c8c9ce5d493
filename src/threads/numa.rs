//! NUMA layout and thread binding (the `NumaPolicy` option, named and valued as Stockfish's).
//!
//! On a machine with several NUMA nodes, memory on a thread's own node is faster to reach, and
//! the OS may move threads between nodes. With binding, searcher `i` is pinned to a core of
//! node `i mod nodes` (spreading the searchers over the nodes, then over each node's cores),
//! and allocates its own data (histories, stacks, accumulators) after binding, so that it lands
//! on its node. The layout comes from `/sys/devices/system/node` on Linux; elsewhere, or where
//! that cannot be read, the machine counts as one node.

/// `NumaPolicy`: `auto` binds only when there are several nodes; `none` never binds;
/// `system` binds to the nodes the system reports even when there is only one (to measure
/// what binding costs there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    #[default]
    Auto,
    None,
    System,
}

impl Policy {
    pub fn parse(s: &str) -> Option<Policy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(Policy::Auto),
            "none" => Some(Policy::None),
            "system" => Some(Policy::System),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::Auto => "auto",
            Policy::None => "none",
            Policy::System => "system",
        }
    }
}

/// The logical CPUs of each NUMA node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub nodes: Vec<Vec<usize>>,
}

/// Parses a Linux cpulist (`0-3,8,10-11`); `None` if malformed or empty.
pub fn parse_cpulist(s: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if b < a || b - a > 1 << 16 {
                    return None;
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.trim().parse().ok()?),
        }
    }
    (!cpus.is_empty()).then_some(cpus)
}

impl Layout {
    /// One node holding `cpus` logical CPUs.
    pub fn single(cpus: usize) -> Layout {
        Layout {
            nodes: vec![(0..cpus.max(1)).collect()],
        }
    }

    /// The machine's layout as the OS reports it.
    pub fn system() -> Layout {
        Layout::from_sysfs(std::path::Path::new("/sys/devices/system/node"))
            .unwrap_or_else(|| Layout::single(num_cpus::get()))
    }

    /// Reads `dir/node<N>/cpulist` for every node that has CPUs.
    pub fn from_sysfs(dir: &std::path::Path) -> Option<Layout> {
        let mut nodes: Vec<(usize, Vec<usize>)> = Vec::new();
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let name = entry.file_name();
            let Some(n) = name
                .to_str()
                .and_then(|s| s.strip_prefix("node"))
                .and_then(|s| s.parse::<usize>().ok())
            else {
                continue;
            };
            let list = std::fs::read_to_string(entry.path().join("cpulist")).unwrap_or_default();
            if let Some(cpus) = parse_cpulist(&list) {
                nodes.push((n, cpus));
            }
        }
        nodes.sort();
        (!nodes.is_empty()).then(|| Layout {
            nodes: nodes.into_iter().map(|(_, c)| c).collect(),
        })
    }

    /// The CPU each of `threads` searchers is bound to (`None`: not bound).
    pub fn plan(&self, threads: usize, policy: Policy) -> Vec<Option<usize>> {
        let bind = match policy {
            Policy::None => false,
            Policy::Auto => self.nodes.len() > 1,
            Policy::System => !self.nodes.is_empty(),
        };
        (0..threads)
            .map(|i| {
                if !bind {
                    return None;
                }
                let node = &self.nodes[i % self.nodes.len()];
                node.get((i / self.nodes.len()) % node.len().max(1))
                    .copied()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpulists_parse_as_linux_writes_them() {
        assert_eq!(
            parse_cpulist("0-3,8,10-11\n"),
            Some(vec![0, 1, 2, 3, 8, 10, 11])
        );
        assert_eq!(parse_cpulist("5"), Some(vec![5]));
        assert_eq!(parse_cpulist(""), None);
        assert_eq!(parse_cpulist("3-1"), None);
        assert_eq!(parse_cpulist("a-b"), None);
        assert_eq!(parse_cpulist("0-99999999"), None);
    }

    #[test]
    fn auto_binds_only_with_several_nodes_and_spreads_over_them() {
        let one = Layout::single(4);
        assert_eq!(one.plan(3, Policy::Auto), vec![None; 3]);
        assert_eq!(one.plan(3, Policy::System), vec![Some(0), Some(1), Some(2)]);
        let two = Layout {
            nodes: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
        };
        assert_eq!(
            two.plan(6, Policy::Auto),
            vec![Some(0), Some(4), Some(1), Some(5), Some(2), Some(6)]
        );
        assert_eq!(two.plan(4, Policy::None), vec![None; 4]);
        // More threads than cores: wrap around within each node.
        let p = two.plan(20, Policy::Auto);
        assert_eq!(p[8], Some(0));
        assert_eq!(p[9], Some(4));
        assert!(p.iter().all(|c| c.is_some()));
    }

    #[test]
    fn sysfs_layout_is_read_from_node_directories() {
        let dir = std::env::temp_dir().join(format!("lazuli-numa-{}", std::process::id()));
        for (n, list) in [(1, "4-7\n"), (0, "0-3\n"), (2, "")] {
            let d = dir.join(format!("node{n}"));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("cpulist"), list).unwrap();
        }
        std::fs::create_dir_all(dir.join("power")).unwrap();
        let l = Layout::from_sysfs(&dir).unwrap();
        assert_eq!(l.nodes, vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(Layout::from_sysfs(&dir).is_none());
        // This machine's own layout has at least one node with a CPU.
        assert!(!Layout::system().nodes.is_empty());
    }
}
