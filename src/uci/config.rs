//! The tablebase settings file (`--syzygy-config FILE` or `LAZULI_SYZYGY_CONFIG`): one
//! `Name = value` per line, names as the UCI options, `#` starts a comment. Parsed here, applied
//! by the coordinator as `setoption`s before the first command; `setoption` overrides it.

/// A settings file is a few lines; anything longer is not one.
pub const MAX_BYTES: u64 = 1 << 20;

/// The settings file at `path` read and parsed: only a regular file of at most [`MAX_BYTES`]
/// (a FIFO or a device such as `/dev/zero` would block or never end).
pub fn read(path: &std::path::Path) -> Result<Vec<(String, String)>, Vec<String>> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| vec![e.to_string()])?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return Err(vec![format!(
            "not a settings file (a regular file of at most {MAX_BYTES} bytes)"
        )]);
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES).read_to_string(&mut text))
        .map_err(|e| vec![e.to_string()])?;
    parse(&text)
}

/// The `(name, value)` pairs of a settings file, or the lines it could not read.
pub fn parse(text: &str) -> Result<Vec<(String, String)>, Vec<String>> {
    let mut pairs = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        match line.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                pairs.push((name.trim().to_string(), value.trim().to_string()));
            }
            _ => errors.push(format!("line {}: expected 'Name = value'", i + 1)),
        }
    }
    if errors.is_empty() {
        Ok(pairs)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_values_and_comments() {
        let text = "# comment\nSyzygyPath = /tb/345:/tb/6  # trailing\n\nSyzygyProbeDepth=4\n";
        assert_eq!(
            parse(text),
            Ok(vec![
                ("SyzygyPath".to_string(), "/tb/345:/tb/6".to_string()),
                ("SyzygyProbeDepth".to_string(), "4".to_string())
            ])
        );
        assert!(parse("SyzygyPath /tb\n").is_err());
        assert!(parse("= 3\n").is_err());
    }

    #[test]
    fn the_shipped_default_file_parses() {
        let text = include_str!("../../syzygy-config/lazuli-syzygy.conf");
        let pairs = parse(text).unwrap();
        for (name, value) in &pairs {
            assert!(
                super::super::options::parse_change(name, Some(value)).is_ok(),
                "{name} = {value}"
            );
        }
        assert_eq!(pairs.len(), 4);
    }
}
