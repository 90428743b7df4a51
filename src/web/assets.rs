//! The page's files (`../../web/`), built into the binary: the page works with no
//! internet and no build step. Plain ES modules; each served with its content type.

/// (name, content type, bytes) of every file the server serves.
pub const FILES: &[(&str, &str, &[u8])] = &[
    ("index.html", "text/html; charset=utf-8", include_bytes!("../../web/index.html")),
    ("app.js", "text/javascript; charset=utf-8", include_bytes!("../../web/app.js")),
    ("board.js", "text/javascript; charset=utf-8", include_bytes!("../../web/board.js")),
    ("principality.js", "text/javascript; charset=utf-8", include_bytes!("../../web/principality.js")),
    ("replay.js", "text/javascript; charset=utf-8", include_bytes!("../../web/replay.js")),
    ("style.css", "text/css; charset=utf-8", include_bytes!("../../web/style.css")),
];
