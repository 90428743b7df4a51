//! `g:log(format, ...)`: the message built in the engine, so that a rule that logs joins no
//! strings in Lua. `%s` writes a string or a number as Lua's `tostring` does, `%d` an
//! integer, `%c` a table of card counts as commands write them ("4 ore brick", in the order of
//! the game's cards, `Spec::cards`; "nothing" for none), `%%` a percent sign. Used by `g:log` (`api.rs`) whichever way it is called:
//! `format_values` for its mlua function's arguments, `format_log_into` for its C function's.

use crate::action::{push_cards, push_int};
use mlua::Value as LV;

type R<T> = mlua::Result<T>;

fn rt(msg: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(msg.into())
}

/// An argument of `g:log(format, ...)`.
#[derive(Clone, Copy)]
pub(super) enum LogArg<'a> {
    Str(&'a str),
    Int(i64),
    Num(f64),
    /// Card counts as (the card's place in `Spec::cards`, count), in that order and
    /// above 0 (`%c`).
    Cards(&'a [(u16, i64)]),
}

/// The message of the method (`api.rs`): its arguments as Lua gave them (`cards`: a table's
/// cards as (place in `Spec::cards`, count) above 0, in that order, for `%c`).
pub(super) fn format_values<'n>(
    format: &str,
    args: &[LV],
    cards: impl Fn(&mlua::Table) -> R<Vec<(u16, i64)>>,
    name: impl Fn(u16) -> &'n str,
) -> R<String> {
    // Strings copied first: a borrowed Lua string lives only as long as its guard.
    let texts: Vec<Option<String>> = args
        .iter()
        .map(|v| match v {
            LV::String(s) => {
                s.to_str().map(|t| Some(t.to_string())).map_err(|_| rt("g:log: an argument is not valid UTF-8"))
            }
            _ => Ok(None),
        })
        .collect::<R<_>>()?;
    let cards: Vec<Option<Vec<(u16, i64)>>> = args
        .iter()
        .map(|v| match v {
            LV::Table(t) => cards(t).map(Some),
            _ => Ok(None),
        })
        .collect::<R<_>>()?;
    let args: Vec<LogArg<'_>> = args
        .iter()
        .zip(texts.iter().zip(&cards))
        .map(|(v, (text, cards))| match (v, text) {
            (_, Some(t)) => Ok(LogArg::Str(t)),
            (_, None) if cards.is_some() => Ok(LogArg::Cards(cards.as_deref().unwrap_or_default())),
            (LV::Integer(i), _) => Ok(LogArg::Int(*i)),
            (LV::Number(n), _) => Ok(LogArg::Num(*n)),
            (other, _) => Err(rt(format!(
                "g:log: a {} cannot be written in a message (use a string, a number or a cards table)",
                other.type_name()
            ))),
        })
        .collect::<R<_>>()?;
    let mut out = String::with_capacity(format.len() + 8 * args.len());
    format_log_into(&mut out, format, &args, name).map_err(rt)?;
    Ok(out)
}

/// `g:log(format, ...)`: `%s` writes a string or a number as `tostring` does, `%d` an
/// integer, `%%` a percent sign. The text is built here, so a rule that logs builds no Lua
/// string for it.
#[cfg(test)]
fn format_log(format: &str, args: &[LogArg<'_>]) -> Result<String, String> {
    let mut out = String::with_capacity(format.len() + 8 * args.len());
    format_log_into(&mut out, format, args, |_| "card")?;
    Ok(out)
}

/// `format_log`, appending to `out` (a quiet game's kept buffer).
/// `name` gives a card's kind by its place, for `%c`.
pub(super) fn format_log_into<'n>(
    out: &mut String,
    format: &str,
    args: &[LogArg<'_>],
    name: impl Fn(u16) -> &'n str,
) -> Result<(), String> {
    let mut next = args.iter();
    let mut rest = format;
    // A byte search ('%' is ASCII, so `i` is a char boundary): `str::find`'s searcher
    // cost more than the short formats it scans (a message about twice an action).
    while let Some(i) = rest.bytes().position(|b| b == b'%') {
        out.push_str(&rest[..i]);
        let spec = rest[i + 1..].chars().next();
        rest = &rest[(i + 1 + spec.map_or(0, char::len_utf8)).min(rest.len())..];
        match spec {
            Some('%') => out.push('%'),
            Some(c @ ('s' | 'd' | 'c')) => {
                let arg = next.next().ok_or_else(|| format!("g:log: '%{c}' has no argument left"))?;
                match (c, arg) {
                    ('c', LogArg::Cards(cards)) => push_cards(out, cards.iter().map(|&(k, n)| (name(k), n))),
                    ('c', _) => return Err("g:log: '%c' needs a table of card counts".into()),
                    (_, LogArg::Cards(_)) => {
                        return Err(format!("g:log: a cards table is written with '%c', not '%{c}'"))
                    }
                    (_, LogArg::Str(s)) if c == 's' => out.push_str(s),
                    (_, LogArg::Int(n)) => push_int(out, *n),
                    ('d', LogArg::Num(x)) if x.fract() == 0.0 && x.abs() < 9.0e15 => push_int(out, *x as i64),
                    ('s', LogArg::Num(x)) => out.push_str(&lua_number(*x)),
                    _ => return Err("g:log: '%d' needs an integer".into()),
                }
            }
            _ => return Err("g:log: a format has only %s, %d, %c and %%".into()),
        }
    }
    out.push_str(rest);
    if next.next().is_some() {
        return Err("g:log: more arguments than the format uses".into());
    }
    Ok(())
}

/// A float as Lua's `tostring` writes it ("%.14g", and ".0" when that reads as an integer).
fn lua_number(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // %.14g: 14 significant digits, the shorter of fixed and exponent notation.
    let exp = if x == 0.0 { 0 } else { x.abs().log10().floor() as i32 };
    let mut s = if (-4..14).contains(&exp) {
        let decimals = (13 - exp).max(0) as usize;
        let mut s = format!("{x:.decimals$}");
        if s.contains('.') {
            s = s.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        s
    } else {
        let s = format!("{x:.13e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
        let e: i32 = e.parse().unwrap_or(0);
        format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
    };
    if s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        s.push_str(".0");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::Lua;

    /// `%d` and `%s` write an integer as `{n}` does, the extremes included.
    #[test]
    fn a_logged_integer_reads_as_rust_writes_it() {
        for n in [0, 7, -7, 10, 99, 100, 12345, -1000, i64::MAX, i64::MIN, i64::MIN + 1] {
            let mut out = String::new();
            push_int(&mut out, n);
            assert_eq!(out, n.to_string());
            assert_eq!(format_log("%d and %s", &[LogArg::Int(n), LogArg::Int(n)]), Ok(format!("{n} and {n}")));
        }
    }

    /// `g:log("%s", x)` writes a float as Lua's `tostring` does.
    #[test]
    fn a_logged_float_reads_as_tostring_writes_it() {
        let lua = Lua::new();
        let mut xs = vec![
            0.0,
            -0.0,
            2.0,
            0.5,
            -1.25,
            1.0 / 3.0,
            1e14,
            99999999999999.99,
            123456789012345.0,
            1e15,
            1e20,
            1e-5,
            0.0001,
            123.456,
            1e100,
            -7e-300,
            2.5e-7,
            999.99999999999999,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut x = 0.7548776662466927f64;
        for _ in 0..2000 {
            x = (x * 7919.0 + 0.123).fract();
            xs.push((x - 0.5) * 10f64.powi(((x * 1000.0) as i32 % 40) - 20));
        }
        for x in xs {
            let lit = if x.is_infinite() { format!("{}1/0", if x < 0.0 { "-" } else { "" }) } else { format!("{x:e}") };
            let want: String = lua.load(format!("return tostring({lit})")).eval().unwrap();
            assert_eq!(lua_number(x), want, "{x:e}");
        }
    }

    /// `g:log(format, ...)`: %s, %d and %%, and an error for anything else.
    #[test]
    fn a_log_format_writes_its_arguments() {
        let args = [LogArg::Str("red"), LogArg::Int(3), LogArg::Num(4.0), LogArg::Int(7)];
        assert_eq!(format_log("%s rolls %d+%d = %s (100%%)", &args).as_deref(), Ok("red rolls 3+4 = 7 (100%)"));
        assert!(format_log("%s %s", &args[..1]).is_err(), "an argument missing");
        assert!(format_log("%s", &args[..2]).is_err(), "an argument left over");
        assert!(format_log("%x", &args[..1]).is_err(), "an unknown format");
        assert!(format_log("%d", &[LogArg::Str("red")]).is_err(), "%d takes an integer");
        assert!(format_log("%d", &[LogArg::Num(0.5)]).is_err(), "%d takes an integer");
        assert!(format_log("100%", &[]).is_err(), "a lone % at the end");
    }
}
