//! Small SVG plots for the HTML report: one value per test of a solution (CPU time, memory) as a fraction of its
//! limit, on a log scale, so that a 2 ms reference against a 1 s limit stands as clearly above the axis as a run
//! near the limit stands below it. Plotters draws the axes and lines; the points, which may be thousands on a
//! page, are drawn as one path per colour (a dot is a round cap on a segment of no length), rather than an
//! element each; the tests are named along the axis, as many as fit without overlapping.

use plotters::prelude::*;

/// One point: the test's index, its value (in the limit's unit), and whether the run went wrong (drawn in red).
pub struct Point {
    pub test: usize,
    pub value: f64,
    pub failed: bool,
}

/// What a plot is drawn against.
pub struct Axes<'a> {
    /// The tests, in order: a point's `test` indexes them.
    pub tests: &'a crate::judge::TestNames,
    /// The limit the runs are held to (a solid red line at 100%).
    pub limit: f64,
    /// A limit suggested for them (dashed), in the same unit.
    pub suggested: Option<f64>,
    /// What the values are, for the vertical axis ("CPU", "memory").
    pub what: &'a str,
}

/// The plot's area: the height of its values, and the width a test takes, within bounds.
const HEIGHT: u32 = 170;
const PER_TEST: u32 = 14;
const NARROWEST: u32 = 360;
const WIDEST: u32 = 860;
/// Room left of the plot for the percentages, and under it for the test names, written upwards: as much as the
/// longest name shown takes, at most [`LABEL_CHARS`] characters of [`CHAR_WIDTH`].
const LEFT: u32 = 62;
const CHAR_WIDTH: u32 = 6;
const MARGIN: u32 = 6;
/// Test names: their font size, the distance between two names along the axis, and the characters one keeps.
const LABEL_SIZE: u32 = 10;
const LABEL_SPACING: f64 = 12.0;
const LABEL_CHARS: usize = 20;

/// The lowest fraction of the limit the axis goes down to: a run that takes less is drawn at the bottom.
const FLOOR: f64 = 1e-4;

/// A plot of `points` against `axes`.
pub fn svg(points: &[Point], axes: &Axes) -> String {
    let tests = axes.tests.len().max(1);
    let limit = if axes.limit > 0.0 { axes.limit } else { 1.0 };
    let fraction = |value: f64| (value / limit).max(FLOOR);
    let fractions = points.iter().map(|p| fraction(p.value));
    // From below the lowest run (or 10%, whichever is lower) to above the limit and the highest run.
    let lowest = fractions.clone().fold(0.1_f64, f64::min);
    let low = (lowest / 3.0).max(FLOOR);
    let high = fractions
        .chain(axes.suggested.map(fraction))
        .fold(1.0_f64, f64::max)
        * 1.5;
    let area = (tests as u32 * PER_TEST).clamp(NARROWEST, WIDEST);
    let longest = axes.tests.iter().map(|t| shown(t).chars().count()).max();
    let below = 12 + CHAR_WIDTH * longest.unwrap_or(0) as u32;
    let size = (LEFT + area + 2 * MARGIN, HEIGHT + below + 2 * MARGIN);
    let mut out = String::new();
    let mut dots: Vec<(i32, i32, bool)> = Vec::with_capacity(points.len());
    let mut ticks: Vec<(i32, i32)> = Vec::with_capacity(tests);
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            let mut chart = ChartBuilder::on(&root)
                .margin(MARGIN)
                .x_label_area_size(below)
                .y_label_area_size(LEFT)
                .build_cartesian_2d(-0.5..tests as f64 - 0.5, (low..high).log_scale())?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc(format!("{}, % of the limit", axes.what))
                .y_labels(6)
                .y_label_formatter(&|v| percent(*v))
                .draw()?;
            let across = |value: f64| [(-0.5, value), (tests as f64 - 0.5, value)];
            chart.draw_series(LineSeries::new(across(1.0), RED.stroke_width(1)))?;
            if let Some(suggested) = axes.suggested {
                chart.draw_series(DashedLineSeries::new(
                    across(fraction(suggested)),
                    6,
                    4,
                    RGBColor(90, 90, 90).stroke_width(1),
                ))?;
            }
            dots.extend(points.iter().map(|p| {
                let (x, y) = chart.backend_coord(&(p.test as f64, fraction(p.value)));
                (x, y, p.failed)
            }));
            ticks
                .extend((0..axes.tests.len()).map(|test| chart.backend_coord(&(test as f64, low))));
            root.present()?;
            Ok(())
        })();
        if let Err(e) = drawn {
            return format!("<p>no plot: {e}</p>");
        }
    }
    let mut more = String::new();
    for (failed, class, color) in [(false, "ok", "#0000FF"), (true, "failed", "#FF0000")] {
        let d: String = dots
            .iter()
            .filter(|dot| dot.2 == failed)
            .map(|(x, y, _)| format!("M{x} {y}h0"))
            .collect();
        if !d.is_empty() {
            more.push_str(&format!(
                r#"<path class="runs {class}" d="{d}" stroke="{color}" stroke-width="4" stroke-linecap="round"/>"#
            ));
            more.push('\n');
        }
    }
    more.push_str(&test_labels(axes.tests, &ticks));
    match out.rfind("</svg>") {
        Some(end) => out.insert_str(end, &more),
        None => out.push_str(&more),
    }
    out
}

/// The tests' names under the axis, written upwards from it: every test's where they fit, else every n-th one,
/// so that no two overlap. Each is its test's name, cut to its end where long, with the whole name as its title.
/// They share one group that turns them upwards from the axis and holds their font and alignment, so that each
/// name, which a page of many plots repeats in every plot, is only its title, its text and its place along the axis.
fn test_labels(tests: &crate::judge::TestNames, ticks: &[(i32, i32)]) -> String {
    let apart = match ticks {
        [first, .., last] => f64::from(last.0 - first.0) / (ticks.len() - 1) as f64,
        _ => LABEL_SPACING,
    };
    let every = (LABEL_SPACING / apart.max(0.1)).ceil().max(1.0) as usize;
    // Every tick is on the axis, at the same height.
    let Some(&(_, axis)) = ticks.first() else {
        return String::new();
    };
    let mut labels = format!(
        r#"<g class="test-labels" transform="translate(0 {}) rotate(-90)" text-anchor="end" dominant-baseline="central" font-family="sans-serif" font-size="{LABEL_SIZE}">"#,
        axis + 4
    );
    labels.push('\n');
    for (test, &(x, _)) in tests.iter().zip(ticks).step_by(every) {
        labels.push_str(&format!(
            "<g><title>{}</title><text y=\"{x}\">{}</text></g>\n",
            quick_xml::escape::escape(test),
            quick_xml::escape::escape(shown(test).as_str()),
        ));
    }
    labels.push_str("</g>\n");
    labels
}

/// A test's name as its label shows it: cut to its end where long, since names differ most at their ends.
fn shown(test: &str) -> String {
    let chars = test.chars().count();
    if chars > LABEL_CHARS {
        let tail: String = test.chars().skip(chars - (LABEL_CHARS - 1)).collect();
        format!("…{tail}")
    } else {
        test.to_owned()
    }
}

/// A fraction as a percentage with as many decimals as it needs: 100%, 10%, 1%, 0.1%, 0.01%.
fn percent(fraction: f64) -> String {
    let p = fraction * 100.0;
    if p >= 1.0 || p <= 0.0 {
        format!("{p:.0}%")
    } else {
        let decimals = (-p.log10()).ceil() as usize;
        format!("{p:.decimals$}%")
    }
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

    fn names(n: usize) -> crate::judge::TestNames {
        (0..n).map(|i| format!("test-{i}")).collect()
    }

    /// The vertical place of each dot of `svg`, in order.
    fn heights(svg: &str) -> Vec<i32> {
        svg.split('M')
            .skip(1)
            .filter_map(|dot| dot.split_once("h0"))
            .map(|(at, _)| at.split(' ').nth(1).unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn a_plot_has_its_points_and_its_limit() {
        let tests = names(5);
        let points: Vec<Point> = (0..5)
            .map(|test| Point {
                test,
                value: test as f64 * 10.0,
                failed: test == 4,
            })
            .collect();
        let axes = Axes {
            tests: &tests,
            limit: 100.0,
            suggested: None,
            what: "CPU",
        };
        let svg = svg(&points, &axes);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(dots(&svg), 5, "{svg}");
        assert_eq!(svg.matches(r#"class="runs failed""#).count(), 1, "{svg}");
        assert_eq!(svg.matches(LIMIT_STROKE).count(), 1, "{svg}");
        assert!(svg.contains("CPU, % of the limit"), "{svg}");
        assert!(svg.contains("\n100%\n"), "{svg}");
    }

    #[test]
    fn a_fast_run_stands_well_above_the_axis_against_a_long_limit() {
        // 2 ms and 4 ms against a 1000 ms limit: on a linear scale both sat on the axis, a pixel apart.
        let tests = names(3);
        let points: Vec<Point> = [2.0, 4.0, 900.0]
            .into_iter()
            .enumerate()
            .map(|(test, value)| Point {
                test,
                value,
                failed: false,
            })
            .collect();
        let axes = Axes {
            tests: &tests,
            limit: 1000.0,
            suggested: None,
            what: "CPU",
        };
        let svg = svg(&points, &axes);
        let [fast, faster_still, slow] = heights(&svg)[..] else {
            panic!("{svg}")
        };
        let bottom = (MARGIN + HEIGHT) as i32;
        assert!(
            bottom - fast >= 15,
            "2 ms at {fast}, the axis at {bottom}: {svg}"
        );
        assert!(
            fast - faster_still >= 10,
            "2 ms at {fast}, 4 ms at {faster_still}: {svg}"
        );
        assert!(faster_still - slow >= 40, "{svg}");
    }

    #[test]
    fn the_tests_are_named_along_the_axis_thinned_out_where_many() {
        let few = names(5);
        let points = [Point {
            test: 0,
            value: 30.0,
            failed: false,
        }];
        let axes = |tests| Axes {
            tests,
            limit: 100.0,
            suggested: None,
            what: "CPU",
        };
        let drawn = svg(&points, &axes(&few));
        for name in few.iter() {
            assert!(drawn.contains(&format!("<title>{name}</title>")), "{drawn}");
        }
        let many: crate::judge::TestNames = (0..500)
            .map(|i| format!("a-rather-long-group/<case>-{i}"))
            .collect();
        let drawn = svg(&points, &axes(&many));
        let shown = drawn.matches("<title>").count();
        assert!((20..=80).contains(&shown), "{shown} labels: {drawn}");
        // Cut to their ends, and escaped.
        assert!(
            drawn.contains(">…long-group/&lt;case&gt;-0</text>"),
            "{drawn}"
        );
    }

    #[test]
    fn the_test_names_share_their_font_and_turn() {
        // Many plots on a page each name their tests: a name is its text and its place, no more.
        let tests = names(40);
        let points = [Point {
            test: 0,
            value: 30.0,
            failed: false,
        }];
        let axes = Axes {
            tests: &tests,
            limit: 100.0,
            suggested: None,
            what: "CPU",
        };
        let drawn = svg(&points, &axes);
        assert!(
            drawn.contains("<g><title>test-39</title><text y=\""),
            "{drawn}"
        );
        assert_eq!(drawn.matches(r#"font-size="10""#).count(), 1, "{drawn}");
        // One turn for the vertical axis's description, one for all the names.
        assert_eq!(drawn.matches("rotate(").count(), 2, "{drawn}");
    }

    #[test]
    fn a_suggested_limit_is_a_dashed_line() {
        let tests = names(1);
        let points = [Point {
            test: 0,
            value: 30.0,
            failed: false,
        }];
        let axes = Axes {
            tests: &tests,
            limit: 100.0,
            suggested: Some(60.0),
            what: "CPU",
        };
        let both = svg(&points, &axes);
        assert_eq!(both.matches(LIMIT_STROKE).count(), 1, "{both}");
        // Dashes are short lines of their own.
        assert!(both.matches(r##"stroke="#5A5A5A""##).count() > 5, "{both}");
    }
}
