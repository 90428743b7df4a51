//! `fork_cost` on the allocator of the `catan` binary and the Python package (mimalloc),
//! where the bots play: `valgrind --tool=callgrind
//! target/release/examples/fork_cost_mimalloc fork 2000 base`.

#[global_allocator]
static ALLOCATOR: catan_engine::alloc::Allocator = catan_engine::alloc::Allocator;

#[path = "fork_cost.rs"]
mod fork_cost;

fn main() {
    fork_cost::main()
}
