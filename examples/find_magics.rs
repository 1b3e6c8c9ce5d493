//! Searches magic multipliers for "fancy" magic bitboards with the minimal shift (64 - mask bits)
//! and prints them as Rust source for `src/chess/magics.rs`.
//!
//! `cargo run --release --example find_magics > src/chess/magics.rs`

use lazuli::chess::attacks::{pdep, ray_attacks, slider_mask};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Sparse candidates (few bits set) succeed far more often.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find(sq: usize, rook: bool, rng: &mut Rng) -> u64 {
    let mask = slider_mask(sq, rook);
    let bits = mask.count_ones();
    let n = 1usize << bits;
    let occs: Vec<u64> = (0..n as u64).map(|i| pdep(i, mask)).collect();
    let atts: Vec<u64> = occs.iter().map(|&o| ray_attacks(sq, o, rook)).collect();
    let mut used = vec![0u64; n];
    let mut epoch = vec![0u32; n];
    let mut tries = 0u32;
    loop {
        tries += 1;
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let mut ok = true;
        for i in 0..n {
            let idx = (occs[i].wrapping_mul(magic) >> (64 - bits)) as usize;
            if epoch[idx] != tries {
                epoch[idx] = tries;
                used[idx] = atts[i];
            } else if used[idx] != atts[i] {
                ok = false;
                break;
            }
        }
        if ok {
            return magic;
        }
    }
}

fn main() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    println!("//! Magic multipliers for the fallback (non-PEXT) slider tables, found by");
    println!("//! `examples/find_magics.rs` (minimal shift: 64 - relevant mask bits).");
    println!();
    for (name, rook) in [("ROOK_MAGICS", true), ("BISHOP_MAGICS", false)] {
        println!("pub const {name}: [u64; 64] = [");
        for sq in 0..64 {
            println!("    0x{:016x},", find(sq, rook, &mut rng));
        }
        println!("];");
    }
}
