//! The global allocator of the `catan` binary and the Python package: mimalloc, asked for
//! plainly sized blocks wherever it can.
//!
//! Lua allocates and frees many small tables an action, and mlua asks for every one of them
//! with an alignment of 16. The `mimalloc` crate's allocator sends each request with an
//! alignment through mimalloc's aligned path, a few calls deeper than `mi_malloc`; this one
//! asks `mi_malloc` (and `mi_realloc`) first and takes the aligned path only when the
//! block it got is not aligned as asked (mimalloc aligns most small blocks naturally), so
//! every block is aligned as its layout says, whatever mimalloc's bins happen to be.

use libmimalloc_sys::{mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc_aligned};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc, asked for unaligned blocks first (see the module).
pub struct Allocator;

fn aligned(p: *mut c_void, align: usize) -> bool {
    (p as usize) & (align - 1) == 0
}

unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = mi_malloc(layout.size());
        if p.is_null() || aligned(p, layout.align()) {
            return p as *mut u8;
        }
        mi_free(p);
        mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi_free(ptr as *mut c_void);
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = mi_realloc(ptr as *mut c_void, new_size);
        if p.is_null() || aligned(p, layout.align()) {
            return p as *mut u8;
        }
        // Moved to a block aligned less than asked: move it once more, aligned.
        mi_realloc_aligned(p, new_size, layout.align()) as *mut u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block is aligned as its layout asks and keeps its contents through realloc.
    #[test]
    fn blocks_are_aligned_as_asked() {
        let a = Allocator;
        for align in [1usize, 2, 8, 16, 32, 64, 4096] {
            for size in [1usize, 7, 8, 16, 24, 40, 48, 100, 1000, 70_000] {
                unsafe {
                    let layout = Layout::from_size_align(size, align).unwrap();
                    let p = a.alloc(layout);
                    assert!(!p.is_null() && (p as usize).is_multiple_of(align), "alloc {size} {align}");
                    std::ptr::write_bytes(p, 0xAB, size);
                    let q = a.realloc(p, layout, size * 3 + 5);
                    assert!(!q.is_null() && (q as usize).is_multiple_of(align), "realloc {size} {align}");
                    assert!((0..size).all(|i| *q.add(i) == 0xAB), "realloc kept the bytes");
                    a.dealloc(q, Layout::from_size_align(size * 3 + 5, align).unwrap());
                    let z = a.alloc_zeroed(layout);
                    assert!((0..size).all(|i| *z.add(i) == 0) && (z as usize).is_multiple_of(align));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
