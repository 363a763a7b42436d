//! Small SVG plots for the HTML report: one value per test of a solution (CPU time, memory), with the limit as a
//! line across, so that the margin of every run shows. Plotters draws the axes and lines; the points, which may
//! be thousands on a page, are drawn as one path per colour (a dot is a round cap on a segment of no length),
//! rather than an element each.

use plotters::prelude::*;

/// One point: the test's index, its value, and whether the run went wrong (drawn in red).
pub struct Point {
    pub test: usize,
    pub value: f64,
    pub failed: bool,
}

/// A value drawn as a line across the plot.
pub enum Line {
    /// A limit the runs are held to: solid red.
    Limit(f64),
    /// A limit suggested for them: dashed.
    Suggested(f64),
}

impl Line {
    fn value(&self) -> f64 {
        match self {
            Line::Limit(value) | Line::Suggested(value) => *value,
        }
    }
}

/// A plot of `points` over `tests` tests, with `lines` across; `unit` names the values' unit on the axis.
pub fn svg(points: &[Point], tests: usize, lines: &[Line], unit: &str) -> String {
    let mut out = String::new();
    let top = points
        .iter()
        .map(|p| p.value)
        .chain(lines.iter().map(Line::value))
        .fold(0.0_f64, f64::max)
        * 1.1;
    let top = if top > 0.0 { top } else { 1.0 };
    let mut dots: Vec<(i32, i32, bool)> = Vec::with_capacity(points.len());
    {
        let root = SVGBackend::with_string(&mut out, (420, 160)).into_drawing_area();
        let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            let mut chart = ChartBuilder::on(&root)
                .margin(6)
                .x_label_area_size(22)
                .y_label_area_size(52)
                .build_cartesian_2d(0..tests.max(1), 0.0..top)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_desc("test")
                .y_desc(unit)
                .y_labels(4)
                .x_labels(6)
                .draw()?;
            let across = |value: f64| [(0, value), (tests.max(1), value)];
            for line in lines {
                match *line {
                    Line::Limit(value) => {
                        chart.draw_series(LineSeries::new(across(value), RED.stroke_width(1)))?;
                    }
                    Line::Suggested(value) => {
                        chart.draw_series(DashedLineSeries::new(
                            across(value),
                            6,
                            4,
                            RGBColor(90, 90, 90).stroke_width(1),
                        ))?;
                    }
                }
            }
            dots.extend(points.iter().map(|p| {
                let (x, y) = chart.backend_coord(&(p.test, p.value));
                (x, y, p.failed)
            }));
            root.present()?;
            Ok(())
        })();
        if let Err(e) = drawn {
            return format!("<p>no plot: {e}</p>");
        }
    }
    let mut paths = String::new();
    for (failed, class, color) in [(false, "ok", "#0000FF"), (true, "failed", "#FF0000")] {
        let d: String = dots
            .iter()
            .filter(|dot| dot.2 == failed)
            .map(|(x, y, _)| format!("M{x} {y}h0"))
            .collect();
        if !d.is_empty() {
            paths.push_str(&format!(
                r#"<path class="runs {class}" d="{d}" stroke="{color}" stroke-width="4" stroke-linecap="round"/>"#
            ));
            paths.push('\n');
        }
    }
    match out.rfind("</svg>") {
        Some(end) => out.insert_str(end, &paths),
        None => out.push_str(&paths),
    }
    out
}

/// How many points a plot drawn by [`svg`] has: its dots.
#[cfg(test)]
fn dots(svg: &str) -> usize {
    svg.match_indices("h0").count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT_STROKE: &str = r##"<polyline fill="none" opacity="1" stroke="#FF0000""##;

    #[test]
    fn a_plot_has_its_points_and_its_limit() {
        let points: Vec<Point> = (0..5)
            .map(|test| Point {
                test,
                value: test as f64 * 10.0,
                failed: test == 4,
            })
            .collect();
        let svg = svg(&points, 5, &[Line::Limit(100.0)], "CPU ms");
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(dots(&svg), 5, "{svg}");
        assert_eq!(svg.matches(r#"class="runs failed""#).count(), 1, "{svg}");
        assert_eq!(svg.matches(LIMIT_STROKE).count(), 1, "{svg}");
        assert!(svg.contains("CPU ms"), "{svg}");
    }

    #[test]
    fn a_suggested_limit_is_a_dashed_line() {
        let points = [Point {
            test: 0,
            value: 30.0,
            failed: false,
        }];
        let both = svg(
            &points,
            1,
            &[Line::Limit(100.0), Line::Suggested(60.0)],
            "CPU ms",
        );
        assert_eq!(both.matches(LIMIT_STROKE).count(), 1, "{both}");
        // Dashes are short lines of their own.
        assert!(both.matches(r##"stroke="#5A5A5A""##).count() > 5, "{both}");
    }
}
