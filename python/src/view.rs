//! `Game.view`'s board, built straight into Python objects. The board's shape (labels,
//! coordinates, who neighbours whom) never changes in a game: its strings and tuples are
//! made once per topology and shared by every later view (each view gets lists of its
//! own, copied from them), so a view builds only dicts and what changes (terrains,
//! numbers, pieces, harbors, markers). The result equals `json.loads(view_json())`, key
//! order included (serde_json's maps are sorted).

use catan_engine::board::Topology;
use catan_engine::spec::Spec;
use catan_engine::state::{GameState, Piece};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::sync::Arc;

/// The Python strings of a topology's labels and its lists of neighbours, made once.
pub(crate) struct Shape {
    /// The topology they were made of (compared by address: a game keeps its own).
    topology: Arc<Topology>,
    hexes: Vec<HexShape>,
    intersections: Vec<IntersectionShape>,
    paths: Vec<PathShape>,
}

struct HexShape {
    label: Py<PyString>,
    corners: Py<PyTuple>,
    neighbors: Py<PyTuple>,
}

struct IntersectionShape {
    label: Py<PyString>,
    hexes: Py<PyTuple>,
    neighbors: Py<PyTuple>,
    paths: Py<PyTuple>,
}

struct PathShape {
    label: Py<PyString>,
    ends: Py<PyTuple>,
}

impl Shape {
    pub(crate) fn of(py: Python<'_>, topology: &Arc<Topology>) -> PyResult<Shape> {
        let t = topology;
        let text = |s: &str| PyString::new(py, s).unbind();
        let hex_labels: Vec<Py<PyString>> = t.hexes.iter().map(|h| text(&h.label)).collect();
        let node_labels: Vec<Py<PyString>> = t.intersections.iter().map(|n| text(&n.label)).collect();
        let path_labels: Vec<Py<PyString>> = t.paths.iter().map(|p| text(&p.label)).collect();
        // As the view's `label` does: an index out of range reads as "".
        let labels = |of: &[Py<PyString>], ids: &mut dyn Iterator<Item = usize>| -> PyResult<Py<PyTuple>> {
            let items: Vec<Py<PyString>> =
                ids.map(|i| of.get(i).map_or_else(|| text(""), |s| s.clone_ref(py))).collect();
            Ok(PyTuple::new(py, items)?.unbind())
        };
        let mut hexes = vec![];
        for (i, h) in t.hexes.iter().enumerate() {
            hexes.push(HexShape {
                label: hex_labels[i].clone_ref(py),
                corners: labels(&node_labels, &mut h.corners.iter().copied())?,
                neighbors: labels(&hex_labels, &mut h.neighbors.iter().copied())?,
            });
        }
        let mut intersections = vec![];
        for (i, n) in t.intersections.iter().enumerate() {
            intersections.push(IntersectionShape {
                label: node_labels[i].clone_ref(py),
                hexes: labels(&hex_labels, &mut n.hexes.iter().copied())?,
                neighbors: labels(&node_labels, &mut n.neighbors.iter().copied())?,
                paths: labels(&path_labels, &mut n.paths.iter().copied())?,
            });
        }
        let mut paths = vec![];
        for (i, p) in t.paths.iter().enumerate() {
            paths.push(PathShape {
                label: path_labels[i].clone_ref(py),
                ends: labels(&node_labels, &mut p.ends.iter().copied())?,
            });
        }
        Ok(Shape { topology: topology.clone(), hexes, intersections, paths })
    }

    pub(crate) fn is_of(&self, topology: &Arc<Topology>) -> bool {
        Arc::ptr_eq(&self.topology, topology)
    }

    /// The view's `board` of `st` (whose topology this shape was made of).
    pub(crate) fn board(&self, py: Python<'_>, spec: &Spec, st: &GameState) -> PyResult<PyObject> {
        let list = |t: &Py<PyTuple>| PyList::new(py, t.bind(py).iter());
        let piece = |p: &Option<Piece>| -> PyResult<PyObject> {
            Ok(match p {
                Some(p) => {
                    let d = PyDict::new(py);
                    d.set_item("kind", &spec.pieces[p.kind as usize].name)?;
                    d.set_item("owner", p.seat().and_then(|s| st.players.get(s)).map(|pl| pl.color.as_str()))?;
                    d.into_any().unbind()
                }
                None => py.None(),
            })
        };
        let hexes = PyList::empty(py);
        for (h, shape) in self.hexes.iter().enumerate() {
            let d = PyDict::new(py);
            let hs = &st.hexes[h];
            let info = &self.topology.hexes[h];
            d.set_item("corners", list(&shape.corners)?)?;
            d.set_item("label", &shape.label)?;
            d.set_item("neighbors", list(&shape.neighbors)?)?;
            d.set_item("number", hs.number)?;
            d.set_item("q", info.q)?;
            d.set_item("r", info.r)?;
            d.set_item("terrain", &spec.terrains[hs.terrain as usize].name)?;
            hexes.append(d)?;
        }
        let intersections = PyList::empty(py);
        for (n, shape) in self.intersections.iter().enumerate() {
            let d = PyDict::new(py);
            d.set_item("hexes", list(&shape.hexes)?)?;
            d.set_item("label", &shape.label)?;
            d.set_item("neighbors", list(&shape.neighbors)?)?;
            d.set_item("paths", list(&shape.paths)?)?;
            d.set_item("piece", piece(&st.intersections[n])?)?;
            intersections.append(d)?;
        }
        let paths = PyList::empty(py);
        for (p, shape) in self.paths.iter().enumerate() {
            let d = PyDict::new(py);
            d.set_item("ends", list(&shape.ends)?)?;
            d.set_item("label", &shape.label)?;
            d.set_item("piece", piece(&st.paths[p])?)?;
            paths.append(d)?;
        }
        let path_label =
            |p: usize| self.paths.get(p).map_or_else(|| PyString::new(py, "").unbind(), |s| s.label.clone_ref(py));
        let hex_label =
            |h: usize| self.hexes.get(h).map_or_else(|| PyString::new(py, "").unbind(), |s| s.label.clone_ref(py));
        let harbors = PyList::empty(py);
        for hb in st.harbors.iter() {
            let d = PyDict::new(py);
            d.set_item("path", path_label(hb.path))?;
            d.set_item("ratio", hb.ratio)?;
            d.set_item("resource", hb.resource.as_deref())?;
            harbors.append(d)?;
        }
        let markers = PyDict::new(py);
        for (name, &h) in &st.markers {
            markers.set_item(name, hex_label(h))?;
        }
        let board = PyDict::new(py);
        board.set_item("harbors", harbors)?;
        board.set_item("hexes", hexes)?;
        board.set_item("intersections", intersections)?;
        board.set_item("markers", markers)?;
        board.set_item("paths", paths)?;
        Ok(board.into_any().unbind())
    }
}
