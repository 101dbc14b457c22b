//! The load-sweep plot of `compare --plot`: pool CPU and inject-to-start
//! p50 against the job rate, for `spawn` and `install`, one line per pool
//! and pool size, on log-log axes (SVG, through plotters).

use plotters::prelude::*;
use std::error::Error;

/// Values at or below this are drawn at it (log axes have no zero; an idle
/// pool's CPU can be 0).
const FLOOR: f64 = 0.01;

/// The sweep's median figure `metric` (`cpu`, `p50`) for one pool, mode and
/// pool size, as (rate, value) points in rate order, from the `results`
/// rows `(name, drowse median, rayon median)`.
fn points(
    results: &[(String, f64, f64)],
    drowse: bool,
    mode: &str,
    threads: usize,
    metric: &str,
) -> Vec<(f64, f64)> {
    let prefix = format!("sweep_{mode}_");
    let suffix = format!("_{threads}t_{metric}");
    let mut points: Vec<(f64, f64)> = results
        .iter()
        .filter_map(|(name, d, r)| {
            let rate_name = name.strip_prefix(&prefix)?.strip_suffix(&suffix)?;
            let rate = match rate_name.strip_suffix("khz") {
                Some(k) => k.parse::<f64>().ok()? * 1e3,
                None => rate_name.strip_suffix("hz")?.parse().ok()?,
            };
            let value = if drowse { *d } else { *r };
            Some((rate, value.max(FLOOR)))
        })
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points
}

/// Writes the plot to `path`; `Ok(false)` (and no file) when `results` holds
/// no sweep point.
pub fn sweep_svg(
    path: &str,
    results: &[(String, f64, f64)],
    thread_counts: &[usize],
) -> Result<bool, Box<dyn Error>> {
    let panels = [
        ("spawn", "cpu", "pool CPU (ms per s), spawn"),
        ("spawn", "p50", "inject-to-start p50 (us), spawn"),
        ("install", "cpu", "pool CPU (ms per s), install"),
        ("install", "p50", "inject-to-start p50 (us), install"),
    ];
    let any = panels.iter().any(|(mode, metric, _)| {
        thread_counts
            .iter()
            .any(|&t| !points(results, true, mode, t, metric).is_empty())
    });
    if !any {
        return Ok(false);
    }
    let root = SVGBackend::new(path, (1100, 800)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "Drowse vs rayon-core 1.13: load sweep (medians, same run)",
        ("sans-serif", 20),
    )?;
    for (area, (mode, metric, title)) in root.split_evenly((2, 2)).iter().zip(panels) {
        let mut lines = Vec::new();
        for (drowse, pool) in [(true, "drowse"), (false, "rayon-core")] {
            for (shade, &threads) in thread_counts.iter().enumerate() {
                let line = points(results, drowse, mode, threads, metric);
                if !line.is_empty() {
                    lines.push((pool, drowse, shade, threads, line));
                }
            }
        }
        let chart_is_empty = lines.is_empty();
        let values = lines.iter().flat_map(|l| l.4.iter().map(|p| p.1));
        let top = values.fold(FLOOR, f64::max) * 2.0;
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d((50f64..200_000f64).log_scale(), (FLOOR..top).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("jobs per second")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y}"))
            .draw()?;
        for (pool, drowse, shade, threads, line) in lines {
            // Drowse in blues, rayon-core in reds; darker for bigger pools.
            const BLUES: [RGBColor; 3] = [
                RGBColor(90, 160, 250),
                RGBColor(20, 50, 180),
                RGBColor(0, 10, 90),
            ];
            const REDS: [RGBColor; 3] = [
                RGBColor(250, 140, 70),
                RGBColor(200, 20, 20),
                RGBColor(100, 0, 0),
            ];
            let color = if drowse { BLUES } else { REDS }[shade.min(2)];
            let style = ShapeStyle::from(&color).stroke_width(2);
            chart
                .draw_series(LineSeries::new(line.clone(), style))?
                .label(format!("{pool}, {threads} threads"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, style.filled())))?;
        }
        if chart_is_empty {
            continue;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(true)
}
