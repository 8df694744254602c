//! Charts as SVG, drawn with `plotters` (its SVG backend: text written as
//! `<text>` elements, no font file read), for the teacher's analysis in the
//! online judge and in the offline HTML report: no script, printable. The
//! words (title, axis, series) come from the caller, in the page's
//! language; every chart is shown beside a table of the same figures.

use plotters::coord::Shift;
use plotters::prelude::*;

/// One series of a chart: its name (the legend) and a value per label.
pub struct Series<'a> {
    /// Its name.
    pub name: &'a str,
    /// One value per label.
    pub values: Vec<f64>,
}

/// A chart's words and figures.
pub struct Chart<'a> {
    /// The title above it.
    pub title: &'a str,
    /// The vertical axis's description.
    pub y: &'a str,
    /// One label per position on the horizontal axis.
    pub labels: Vec<String>,
    /// The series (stacked as bars, or as lines).
    pub series: Vec<Series<'a>>,
}

/// Colours of the series, in order (readable on white, told apart in
/// greys when printed).
const COLOURS: [RGBColor; 6] = [
    RGBColor(0x1f, 0x6f, 0xb4),
    RGBColor(0xd6, 0x5f, 0x0e),
    RGBColor(0x2c, 0x9a, 0x3c),
    RGBColor(0xb0, 0x20, 0x30),
    RGBColor(0x70, 0x50, 0xa0),
    RGBColor(0x80, 0x80, 0x80),
];

/// The size every chart is drawn at (the page scales it to its width).
const SIZE: (u32, u32) = (640, 300);

/// Bars, one per label, the series stacked.
pub fn bars(c: &Chart) -> String {
    draw(c, |area, c| {
        let n = c.labels.len().max(1);
        let top = (0..n)
            .map(|i| {
                c.series
                    .iter()
                    .map(|s| s.values.get(i).copied().unwrap_or(0.0))
                    .sum::<f64>()
            })
            .fold(0.0, f64::max);
        let mut chart = frame(area, c, (0..n).into_segmented(), 0.0..nice(top))?;
        let mut base = vec![0.0; n];
        for (k, s) in c.series.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let rects: Vec<_> = (0..n)
                .map(|i| {
                    let v = s.values.get(i).copied().unwrap_or(0.0);
                    let r = Rectangle::new(
                        [
                            (SegmentValue::Exact(i), base[i]),
                            (SegmentValue::Exact(i + 1), base[i] + v),
                        ],
                        colour.filled(),
                    );
                    base[i] += v;
                    r
                })
                .collect();
            chart
                .draw_series(rects)?
                .label(s.name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
        }
        legend(&mut chart, c)
    })
}

/// Lines, one per series, over the labels.
pub fn lines(c: &Chart) -> String {
    draw(c, |area, c| {
        let n = c.labels.len().max(1);
        let top = c
            .series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .fold(0.0, f64::max);
        let mut chart = frame(area, c, (0..n).into_segmented(), 0.0..nice(top))?;
        for (k, s) in c.series.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let points = s
                .values
                .iter()
                .enumerate()
                .map(|(i, v)| (SegmentValue::CenterOf(i), *v));
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
                .label(s.name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 10, y)], colour.stroke_width(2)));
        }
        legend(&mut chart, c)
    })
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// The axis range above `top`: at least 1.
fn nice(top: f64) -> f64 {
    if top <= 0.0 { 1.0 } else { top * 1.1 }
}

/// The SVG of a chart drawn by `f` (empty when plotters fails, which
/// drawing into a string does not).
fn draw(c: &Chart, f: impl FnOnce(&DrawingArea<SVGBackend, Shift>, &Chart) -> Drawn) -> String {
    let mut svg = String::new();
    if c.labels.is_empty() {
        // Nothing to draw (no submission yet): the table says so.
        return svg;
    }
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        if area.fill(&WHITE).is_err() || f(&area, c).is_err() || area.present().is_err() {
            return String::new();
        }
    }
    // Scales with the page; the table beside it holds the same figures.
    svg.replacen(
        "<svg ",
        "<svg class=\"chart\" role=\"img\" preserveAspectRatio=\"xMidYMid meet\" ",
        1,
    )
    .replacen(&format!("width=\"{}\" height=\"{}\" ", SIZE.0, SIZE.1), "", 1)
}

/// The horizontal axis: one segment per label.
type Labels = plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordusize>;

/// A chart's drawing context, its labels across, numbers up.
type Plot<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<Labels, plotters::coord::types::RangedCoordf64>>;

/// The title, the axes and their labels.
fn frame<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    c: &Chart,
    x: Labels,
    y: std::ops::Range<f64>,
) -> Result<Plot<'a, 'b>, Box<dyn std::error::Error>> {
    let mut chart = ChartBuilder::on(area)
        .caption(c.title, ("sans-serif", 18))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(x, y)?;
    let labels = &c.labels;
    // At most about 10 labels written: a long list is thinned.
    let every = labels.len().div_ceil(10).max(1);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(labels.len().min(20))
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if i % every == 0 => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_desc(c.y)
        .draw()?;
    Ok(chart)
}

/// The legend, when there is more than one series.
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    c: &Chart,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    if c.series.len() > 1 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_is_svg_with_its_words_as_text_and_no_script() {
        let c = Chart {
            title: "通过率 per test",
            y: "%",
            labels: vec!["secret/1".into(), "secret/2".into()],
            series: vec![Series {
                name: "passed",
                values: vec![75.0, 20.0],
            }],
        };
        for svg in [bars(&c), lines(&c)] {
            assert!(svg.starts_with("<svg class=\"chart\""), "{svg}");
            assert!(svg.contains("viewBox=\"0 0 640 300\""), "{svg}");
            assert!(
                svg.contains("通过率 per test"),
                "the title written as text: {svg}"
            );
            assert!(svg.contains("</text>"));
            assert!(svg.contains("secret/1"), "{svg}");
            assert!(!svg.contains("<script"));
        }
        let nothing = Chart {
            labels: Vec::new(),
            series: Vec::new(),
            ..c
        };
        assert_eq!((bars(&nothing), lines(&nothing)), (String::new(), String::new()));
    }
}
