//! Line charts as PNG files (`plotters`), for the trainer's loss curve and `speedtest
//! --scaling`: a person sees at a glance whether training converged or how far threads pay.
//!
//! Text needs a font. None is shipped: the first of a few usual system fonts is loaded at run
//! time (or the file named by `LAZULI_FONT`); without one the chart is drawn without labels.

use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// One line of a chart: its name and its points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

const FONT_FILES: [&str; 5] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a system font for `sans-serif` once; whether one was found.
fn font() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let env = std::env::var("LAZULI_FONT").ok();
        for path in env.iter().map(String::as_str).chain(FONT_FILES) {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            // The font must live as long as the program: it is read once and kept.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
        false
    })
}

const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// Draws `series` as lines with markers into a 900x560 PNG at `path`.
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), String> {
    let points = series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points.filter(|(x, y)| x.is_finite() && y.is_finite()) {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return Err("nothing to plot".into());
    }
    if x1 - x0 < 1e-12 {
        x1 = x0 + 1.0;
    }
    let pad = ((y1 - y0) * 0.08).max(1e-9);
    let (y0, y1) = (y0 - pad, y1 + pad);
    let text = font();
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(20);
    if text {
        builder
            .caption(title, ("sans-serif", 24))
            .x_label_area_size(45)
            .y_label_area_size(70);
    } else {
        builder.x_label_area_size(5).y_label_area_size(5);
    }
    let mut chart = builder
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    let mut mesh = chart.configure_mesh();
    if text {
        mesh.x_desc(x_label).y_desc(y_label);
    } else {
        mesh.disable_x_axis().disable_y_axis();
    }
    mesh.draw().map_err(|e| err(&e))?;
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let line = chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(&e))?;
        if text {
            line.label(s.name.as_str()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        }
        chart
            .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| err(&e))?;
    }
    if text {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png_and_refuses_an_empty_chart() {
        let dir = std::env::temp_dir().join(format!("lazuli-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart.png");
        let s = Series {
            name: "loss".into(),
            points: vec![(1.0, 0.5), (2.0, 0.3), (3.0, 0.25)],
        };
        line_chart(&path, "title", "epoch", "loss", &[s]).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let empty = Series {
            name: "none".into(),
            points: vec![],
        };
        assert!(line_chart(&path, "t", "x", "y", &[empty]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
