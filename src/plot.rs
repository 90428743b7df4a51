//! `catan sim --plot FILE.svg`: the figures a designer looks at, drawn as plain SVG (no
//! plotting library, no fonts to find): win rate by seat with 95% intervals and the fair
//! share, and a histogram of game lengths; with `--compare`, A and B side by side.

use crate::sim::SimReport;
use std::fmt::Write;

const W: f64 = 900.0;
const H: f64 = 380.0;
const COLORS: [&str; 2] = ["#3b6fb6", "#d9822b"];

/// The figure of one run, or of two compared runs (`(label, report)` each), as SVG text.
pub fn svg(runs: &[(&str, &SimReport)]) -> String {
    let mut s = String::new();
    let title = runs.iter().map(|(l, r)| format!("{l}{}", r.variants.join("+"))).collect::<Vec<_>>().join("  vs  ");
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        W / 2.0,
        escape(&title)
    );
    win_rates(&mut s, runs, 50.0, 50.0, 380.0, 270.0);
    lengths(&mut s, runs, 500.0, 50.0, 370.0, 270.0);
    // Legend.
    for (k, (label, r)) in runs.iter().enumerate() {
        let y = H - 14.0;
        let x = 50.0 + k as f64 * 300.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{y}">{} ({} games)</text>"#,
            y - 10.0,
            COLORS[k % 2],
            x + 18.0,
            escape(&format!("{label}{}", r.variants.join("+"))),
            r.games
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Axes with `ticks` labelled y values from 0 to `top` (`fmt` prints a tick).
#[allow(clippy::too_many_arguments)]
fn axes(
    s: &mut String,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    top: f64,
    ticks: usize,
    fmt: impl Fn(f64) -> String,
    title: &str,
) {
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" text-anchor="middle" font-size="13">{}</text>
<line x1="{x}" y1="{}" x2="{}" y2="{}" stroke="black"/><line x1="{x}" y1="{y}" x2="{x}" y2="{}" stroke="black"/>
"##,
        x + w / 2.0,
        y - 8.0,
        escape(title),
        y + h,
        x + w,
        y + h,
        y + h
    );
    for i in 0..=ticks {
        let v = top * i as f64 / ticks as f64;
        let ty = y + h - h * i as f64 / ticks as f64;
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{ty}" x2="{}" y2="{ty}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
            x,
            x + w,
            x - 4.0,
            ty + 4.0,
            fmt(v)
        );
    }
}

fn win_rates(s: &mut String, runs: &[(&str, &SimReport)], x: f64, y: f64, w: f64, h: f64) {
    let players = runs.iter().map(|(_, r)| r.players).max().unwrap_or(1).max(1);
    let top = runs
        .iter()
        .flat_map(|(_, r)| r.seat_rates.iter().map(|q| q.ci95[1]))
        .fold(1.0 / players as f64, f64::max)
        .min(1.0);
    let top = ((top * 10.0).ceil() / 10.0).max(0.1);
    axes(s, x, y, w, h, top, 5, |v| format!("{:.0}%", v * 100.0), "Win rate by seat (95% intervals)");
    let group = w / players as f64;
    let bar = group * 0.7 / runs.len() as f64;
    let py = |v: f64| y + h - h * (v / top).min(1.0);
    for seat in 0..players {
        let gx = x + group * seat as f64 + group * 0.15;
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">seat {}</text>"#,
            gx + group * 0.35,
            y + h + 16.0,
            seat + 1
        );
        for (k, (_, r)) in runs.iter().enumerate() {
            let Some(q) = r.seat_rates.get(seat) else { continue };
            let bx = gx + bar * k as f64;
            let cx = bx + bar * 0.45;
            let _ = write!(
                s,
                r##"<rect x="{bx:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}" opacity="0.85"/>
<line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="black"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black"/>
"##,
                py(q.rate),
                bar * 0.9,
                (y + h - py(q.rate)).max(0.0),
                COLORS[k % 2],
                py(q.ci95[0]),
                py(q.ci95[1]),
                cx - 4.0,
                py(q.ci95[0]),
                cx + 4.0,
                py(q.ci95[0]),
                cx - 4.0,
                py(q.ci95[1]),
                cx + 4.0,
                py(q.ci95[1]),
            );
        }
    }
    let fair = py(1.0 / players as f64);
    let _ = writeln!(
        s,
        r##"<line x1="{x}" y1="{fair:.1}" x2="{}" y2="{fair:.1}" stroke="#c00" stroke-dasharray="6 4"/><text x="{}" y="{:.1}" fill="#c00" text-anchor="end">fair share</text>"##,
        x + w,
        x + w,
        fair - 4.0
    );
}

fn lengths(s: &mut String, runs: &[(&str, &SimReport)], x: f64, y: f64, w: f64, h: f64) {
    let all: Vec<u32> =
        runs.iter().flat_map(|(_, r)| r.rows.iter().filter(|g| g.winner.is_some()).map(|g| g.turns)).collect();
    let (lo, hi) = (all.iter().copied().min().unwrap_or(0), all.iter().copied().max().unwrap_or(1));
    let bins = 20usize;
    let width = ((hi - lo) as f64 / bins as f64).max(1.0);
    let counts: Vec<Vec<usize>> = runs
        .iter()
        .map(|(_, r)| {
            let mut c = vec![0; bins];
            for g in r.rows.iter().filter(|g| g.winner.is_some()) {
                let b = (((g.turns - lo) as f64 / width) as usize).min(bins - 1);
                c[b] += 1;
            }
            c
        })
        .collect();
    let most = counts.iter().flatten().copied().max().unwrap_or(1).max(1);
    axes(s, x, y, w, h, most as f64, 4, |v| format!("{v:.0}"), "Game length in turns (games won)");
    let bw = w / bins as f64;
    for (k, c) in counts.iter().enumerate() {
        for (b, &n) in c.iter().enumerate() {
            let bh = h * n as f64 / most as f64;
            let _ = write!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{}" opacity="0.55"/>"#,
                x + bw * b as f64,
                y + h - bh,
                bw - 1.0,
                COLORS[k % 2]
            );
        }
        s.push('\n');
    }
    for i in 0..=4 {
        let v = lo as f64 + width * bins as f64 * i as f64 / 4.0;
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{v:.0}</text>"#,
            x + w * i as f64 / 4.0,
            y + h + 16.0
        );
    }
    s.push('\n');
}
