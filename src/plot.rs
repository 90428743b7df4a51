//! `catan sim --plot FILE`: the figures a designer looks at: win rate by seat with 95%
//! intervals and the fair share, and a histogram of game lengths; with `--compare`, A and B
//! side by side. One drawing, two surfaces: SVG text (`FILE.svg`), or pixels written as PNG
//! (`FILE.png`) with a built-in 8x8 bitmap font, so no plotting library or system fonts
//! are needed to build or run it.

use crate::sim::{SimReport, Sweep};
use std::fmt::Write;

const W: f64 = 900.0;
const H: f64 = 380.0;
type Rgb = [u8; 3];
const SIDES: [Rgb; 2] = [[0x3b, 0x6f, 0xb6], [0xd9, 0x82, 0x2b]];
const BLACK: Rgb = [0, 0, 0];
const GRID: Rgb = [0xdd, 0xdd, 0xdd];
const FAIR: Rgb = [0xcc, 0, 0];
/// A line per seat in a sweep's figure (up to six seats, then again).
const SEATS: [Rgb; 6] = [
    [0x3b, 0x6f, 0xb6],
    [0xd9, 0x82, 0x2b],
    [0x2e, 0x8b, 0x57],
    [0x8e, 0x44, 0xad],
    [0x7f, 0x7f, 0x7f],
    [0xb0, 0x3a, 0x2e],
];

#[derive(Clone, Copy, PartialEq)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// What the figure is drawn with.
trait Canvas {
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, color: Rgb, opacity: f64);
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Rgb, dashed: bool);
    /// Text whose baseline is at `y`; `big` for titles.
    fn text(&mut self, x: f64, y: f64, text: &str, anchor: Anchor, big: bool, color: Rgb);
}

/// The figure of one run, or of two compared runs (`(label, report)` each, the label
/// naming the rules: "A: base"), as SVG text.
pub fn svg(runs: &[(&str, &SimReport)]) -> String {
    let mut c = Svg(String::new());
    let _ = writeln!(
        c.0,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    draw(&mut c, runs);
    c.0.push_str("</svg>\n");
    c.0
}

/// The same figure as a PNG file's bytes.
pub fn png(runs: &[(&str, &SimReport)]) -> Result<Vec<u8>, String> {
    let mut c = Pixels { w: W as usize, h: H as usize, rgb: vec![255; W as usize * H as usize * 3] };
    draw(&mut c, runs);
    let mut out = vec![];
    let mut enc = ::png::Encoder::new(&mut out, c.w as u32, c.h as u32);
    enc.set_color(::png::ColorType::Rgb);
    enc.set_depth(::png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&c.rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// The figure for `path`: PNG if it ends in `.png`, else SVG.
pub fn figure(path: &str, runs: &[(&str, &SimReport)]) -> Result<Vec<u8>, String> {
    if path.to_ascii_lowercase().ends_with(".png") {
        png(runs)
    } else {
        Ok(svg(runs).into_bytes())
    }
}

/// The figure of `catan sim --sweep` for `path` (PNG if it ends in `.png`, else SVG):
/// each seat's win rate and the mean game length against the option's value, with 95%
/// intervals. The values are spaced evenly in the order given (they may be words).
pub fn sweep_figure(path: &str, s: &Sweep) -> Result<Vec<u8>, String> {
    if path.to_ascii_lowercase().ends_with(".png") {
        let mut c = Pixels { w: W as usize, h: H as usize, rgb: vec![255; W as usize * H as usize * 3] };
        draw_sweep(&mut c, s);
        let mut out = vec![];
        let mut enc = ::png::Encoder::new(&mut out, c.w as u32, c.h as u32);
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&c.rgb).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
        Ok(out)
    } else {
        let mut c = Svg(String::new());
        let _ = writeln!(
            c.0,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
        );
        draw_sweep(&mut c, s);
        c.0.push_str("</svg>\n");
        Ok(c.0.into_bytes())
    }
}

fn draw_sweep(c: &mut dyn Canvas, s: &Sweep) {
    c.rect(0.0, 0.0, W, H, [255, 255, 255], 1.0);
    let Some(first) = s.points.first().map(|p| &p.report) else { return };
    // The stack goes in the legend's row: a path can be long, and the big font is wide.
    let title = format!("{}: {} games a value", s.option, first.games);
    c.text(W / 2.0, 22.0, &title, Anchor::Middle, true, BLACK);
    let stack = format!("{}, {} players", first.variants.join("+"), first.players);
    c.text(W - 30.0, H - 15.0, &stack, Anchor::End, false, BLACK);
    let players = first.players.max(1);
    // Win rates: a line per seat.
    let top = s
        .points
        .iter()
        .flat_map(|p| p.report.seat_rates.iter().map(|q| q.ci95[1]))
        .fold(1.0 / players as f64, f64::max)
        .min(1.0);
    let top = ((top * 10.0).ceil() / 10.0).max(0.1);
    let (x, y, w, h) = (50.0, 55.0, 380.0, 250.0);
    axes(c, x, y, w, h, top, 5, &|v| format!("{:.0}%", v * 100.0), "Win rate by seat (95% intervals)");
    let fair = (y + h - h * (1.0 / players as f64 / top).min(1.0)).round();
    c.line(x, fair, x + w, fair, FAIR, true);
    c.text(x + w, fair - 4.0, "fair share", Anchor::End, false, FAIR);
    let series: Vec<Vec<(f64, [f64; 2])>> = (0..players)
        .map(|seat| {
            s.points
                .iter()
                .map(|p| p.report.seat_rates.get(seat).map_or((0.0, [0.0, 0.0]), |q| (q.rate, q.ci95)))
                .collect()
        })
        .collect();
    lines(c, s, &series, top, (x, y, w, h));
    // Game length: one line.
    let hi = s.points.iter().map(|p| p.report.turns_ci95[1]).fold(1.0, f64::max);
    let step = nice_step(hi / 4.0);
    let top_turns = step * (hi / step).ceil();
    let (x2, w2) = (500.0, 370.0);
    axes(c, x2, y, w2, h, top_turns, 4, &|v| format!("{v:.0}"), "Mean game length in turns (95% intervals)");
    let turns = vec![s.points.iter().map(|p| (p.report.mean_turns, p.report.turns_ci95)).collect()];
    lines(c, s, &turns, top_turns, (x2, y, w2, h));
    c.text(x + w / 2.0, y + h + 32.0, &s.option, Anchor::Middle, false, BLACK);
    c.text(x2 + w2 / 2.0, y + h + 32.0, &s.option, Anchor::Middle, false, BLACK);
    for seat in 0..players {
        let (lx, ly) = (50.0 + 80.0 * seat as f64, H - 15.0);
        c.rect(lx, ly - 10.0, 12.0, 12.0, SEATS[seat % SEATS.len()], 1.0);
        c.text(lx + 18.0, ly, &format!("seat {}", seat + 1), Anchor::Start, false, BLACK);
    }
}

/// A round step for axis ticks (1, 2 or 5 times a power of ten) of at least `x`.
fn nice_step(x: f64) -> f64 {
    let x = x.max(1e-9);
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|&s| s >= x).unwrap_or(10.0 * p)
}

/// Lines through each series' values at the sweep's evenly spaced values, with a
/// whisker for each interval; the values labelled under the axis.
fn lines(c: &mut dyn Canvas, s: &Sweep, series: &[Vec<(f64, [f64; 2])>], top: f64, (x, y, w, h): (f64, f64, f64, f64)) {
    let n = s.points.len().max(1) as f64;
    let px = |i: usize| (x + w * (i as f64 + 0.5) / n).round();
    let py = |v: f64| (y + h - h * (v / top).clamp(0.0, 1.0)).round();
    for (i, p) in s.points.iter().enumerate() {
        c.text(px(i), y + h + 16.0, &p.value, Anchor::Middle, false, BLACK);
    }
    for (k, points) in series.iter().enumerate() {
        let color = if series.len() == 1 { SIDES[0] } else { SEATS[k % SEATS.len()] };
        // Seats side by side, a few pixels apart, so their whiskers do not hide each other.
        let off = (k as f64 - (series.len() as f64 - 1.0) / 2.0) * 3.0;
        for (i, &(v, ci)) in points.iter().enumerate() {
            let cx = px(i) + off;
            c.line(cx, py(ci[0]), cx, py(ci[1]), color, false);
            c.rect(cx - 3.0, py(v) - 3.0, 6.0, 6.0, color, 1.0);
            if let Some(&(next, _)) = points.get(i + 1) {
                c.line(cx, py(v), px(i + 1) + off, py(next), color, false);
            }
        }
    }
}

fn draw(c: &mut dyn Canvas, runs: &[(&str, &SimReport)]) {
    c.rect(0.0, 0.0, W, H, [255, 255, 255], 1.0);
    let title = runs.iter().map(|(l, _)| l.to_string()).collect::<Vec<_>>().join("  vs  ");
    c.text(W / 2.0, 22.0, &title, Anchor::Middle, true, BLACK);
    win_rates(c, runs, 50.0, 55.0, 380.0, 250.0);
    lengths(c, runs, 500.0, 55.0, 370.0, 250.0);
    for (k, (label, r)) in runs.iter().enumerate() {
        // One legend row per run: a long stack name still fits.
        let (x, y) = (50.0, H - 22.0 + 15.0 * k as f64 - 7.5 * (runs.len() as f64 - 1.0));
        c.rect(x, y - 10.0, 12.0, 12.0, SIDES[k % 2], 1.0);
        c.text(x + 18.0, y, &format!("{label} ({} games)", r.games), Anchor::Start, false, BLACK);
    }
}

/// Axes with `ticks` labelled y values from 0 to `top` (`fmt` prints a tick).
#[allow(clippy::too_many_arguments)]
fn axes(
    c: &mut dyn Canvas,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    top: f64,
    ticks: usize,
    fmt: &dyn Fn(f64) -> String,
    title: &str,
) {
    c.text(x + w / 2.0, y - 10.0, title, Anchor::Middle, false, BLACK);
    for i in 0..=ticks {
        let v = top * i as f64 / ticks as f64;
        let ty = (y + h - h * i as f64 / ticks as f64).round();
        c.line(x, ty, x + w, ty, GRID, false);
        c.text(x - 4.0, ty + 4.0, &fmt(v), Anchor::End, false, BLACK);
    }
    c.line(x, y + h, x + w, y + h, BLACK, false);
    c.line(x, y, x, y + h, BLACK, false);
}

fn win_rates(c: &mut dyn Canvas, runs: &[(&str, &SimReport)], x: f64, y: f64, w: f64, h: f64) {
    let players = runs.iter().map(|(_, r)| r.players).max().unwrap_or(1).max(1);
    let top = runs
        .iter()
        .flat_map(|(_, r)| r.seat_rates.iter().map(|q| q.ci95[1]))
        .fold(1.0 / players as f64, f64::max)
        .min(1.0);
    let top = ((top * 10.0).ceil() / 10.0).max(0.1);
    axes(c, x, y, w, h, top, 5, &|v| format!("{:.0}%", v * 100.0), "Win rate by seat (95% intervals)");
    let group = w / players as f64;
    let bar = group * 0.7 / runs.len() as f64;
    let py = |v: f64| y + h - h * (v / top).min(1.0);
    for seat in 0..players {
        let gx = x + group * seat as f64 + group * 0.15;
        c.text(gx + group * 0.35, y + h + 16.0, &format!("seat {}", seat + 1), Anchor::Middle, false, BLACK);
        for (k, (_, r)) in runs.iter().enumerate() {
            let Some(q) = r.seat_rates.get(seat) else { continue };
            let bx = gx + bar * k as f64;
            let cx = (bx + bar * 0.45).round();
            c.rect(bx, py(q.rate), bar * 0.9, (y + h - py(q.rate)).max(0.0), SIDES[k % 2], 0.85);
            let (lo, hi) = (py(q.ci95[0]).round(), py(q.ci95[1]).round());
            c.line(cx, lo, cx, hi, BLACK, false);
            c.line(cx - 4.0, lo, cx + 4.0, lo, BLACK, false);
            c.line(cx - 4.0, hi, cx + 4.0, hi, BLACK, false);
        }
    }
    let fair = py(1.0 / players as f64).round();
    c.line(x, fair, x + w, fair, FAIR, true);
    c.text(x + w, fair - 4.0, "fair share", Anchor::End, false, FAIR);
}

fn lengths(c: &mut dyn Canvas, runs: &[(&str, &SimReport)], x: f64, y: f64, w: f64, h: f64) {
    let won = |r: &SimReport| r.rows.iter().filter(|g| g.winner.is_some()).map(|g| g.turns).collect::<Vec<u32>>();
    let all: Vec<u32> = runs.iter().flat_map(|(_, r)| won(r)).collect();
    let (lo, hi) = (all.iter().copied().min().unwrap_or(0), all.iter().copied().max().unwrap_or(1));
    let bins = 20usize;
    let width = ((hi - lo) as f64 / bins as f64).max(1.0);
    let counts: Vec<Vec<usize>> = runs
        .iter()
        .map(|(_, r)| {
            let mut n = vec![0; bins];
            for t in won(r) {
                n[(((t - lo) as f64 / width) as usize).min(bins - 1)] += 1;
            }
            n
        })
        .collect();
    // A whole number of games per tick.
    let most = counts.iter().flatten().copied().max().unwrap_or(1).max(1);
    let step = most.div_ceil(4).max(1);
    let top = (step * 4) as f64;
    axes(c, x, y, w, h, top, 4, &|v| format!("{v:.0}"), "Game length in turns (games won)");
    let bw = w / bins as f64;
    for (k, n) in counts.iter().enumerate() {
        for (b, &count) in n.iter().enumerate() {
            let bh = h * count as f64 / top;
            c.rect(x + bw * b as f64, y + h - bh, bw - 1.0, bh, SIDES[k % 2], 0.55);
        }
    }
    for i in 0..=4 {
        let v = lo as f64 + width * bins as f64 * i as f64 / 4.0;
        c.text(x + w * i as f64 / 4.0, y + h + 16.0, &format!("{v:.0}"), Anchor::Middle, false, BLACK);
    }
}

struct Svg(String);

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

impl Canvas for Svg {
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, color: Rgb, opacity: f64) {
        let _ = writeln!(
            self.0,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{}" opacity="{opacity}"/>"#,
            hex(color)
        );
    }
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Rgb, dashed: bool) {
        let dash = if dashed { r#" stroke-dasharray="6 4""# } else { "" };
        let _ = writeln!(
            self.0,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}"{dash}/>"#,
            hex(color)
        );
    }
    fn text(&mut self, x: f64, y: f64, text: &str, anchor: Anchor, big: bool, color: Rgb) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let size = if big { r#" font-size="14""# } else { "" };
        let text = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let _ = writeln!(
            self.0,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" fill="{}"{size}>{text}</text>"#,
            hex(color)
        );
    }
}

/// An RGB image, drawn on with 1-pixel lines and an 8x8 bitmap font.
struct Pixels {
    w: usize,
    h: usize,
    rgb: Vec<u8>,
}

impl Pixels {
    fn blend(&mut self, x: i64, y: i64, color: Rgb, opacity: f64) {
        if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
            return;
        }
        let i = (y as usize * self.w + x as usize) * 3;
        for (k, &c) in color.iter().enumerate() {
            let old = self.rgb[i + k] as f64;
            self.rgb[i + k] = (old + (c as f64 - old) * opacity).round() as u8;
        }
    }
}

impl Canvas for Pixels {
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, color: Rgb, opacity: f64) {
        let (x0, y0) = (x.round() as i64, y.round() as i64);
        let (x1, y1) = ((x + w).round() as i64, (y + h).round() as i64);
        for py in y0..y1 {
            for px in x0..x1 {
                self.blend(px, py, color, opacity);
            }
        }
    }
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Rgb, dashed: bool) {
        let steps = (x2 - x1).abs().max((y2 - y1).abs()).ceil().max(1.0) as i64;
        for i in 0..=steps {
            if dashed && (i % 10) >= 6 {
                continue;
            }
            let t = i as f64 / steps as f64;
            self.blend((x1 + (x2 - x1) * t).round() as i64, (y1 + (y2 - y1) * t).round() as i64, color, 1.0);
        }
    }
    fn text(&mut self, x: f64, y: f64, text: &str, anchor: Anchor, big: bool, color: Rgb) {
        let scale = if big { 2 } else { 1 };
        let width = (text.chars().count() * 8 * scale) as f64;
        let left = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - width / 2.0,
            Anchor::End => x - width,
        }
        .round() as i64;
        let top = (y - (8 * scale) as f64 + 1.0).round() as i64;
        for (n, ch) in text.chars().enumerate() {
            let glyph = font8x8::legacy::BASIC_LEGACY.get(ch as usize).copied().unwrap_or([0; 8]);
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) != 0 {
                        for dy in 0..scale {
                            for dx in 0..scale {
                                let px = left + ((n * 8 + col) * scale + dx) as i64;
                                self.blend(px, top + (row * scale + dy) as i64, color, 1.0);
                            }
                        }
                    }
                }
            }
        }
    }
}
