//! Zobrist hashing keys, generated at compile time from a fixed seed (splitmix64).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

pub struct Keys {
    /// `[piece index (colour * 6 + type)][square]`.
    pub pieces: [[u64; 64]; 12],
    /// XORed in when black is to move.
    pub side: u64,
    /// One key per combination of the four castling-right bits.
    pub castling: [u64; 16],
    /// One key per file of the en passant square (only when a capture is legal).
    pub ep_file: [u64; 8],
}

const fn build() -> Keys {
    let mut state = 0x4C41_5A55_4C49_2024u64; // "LAZULI2024"
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        side: 0,
        castling: [0; 16],
        ep_file: [0; 8],
    };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys.pieces[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let (s, k) = splitmix(state);
    state = s;
    keys.side = k;
    // Castling keys: one per right, combined by XOR, so that losing one right is one XOR pair.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (s, k) = splitmix(state);
        state = s;
        single[i] = k;
        i += 1;
    }
    let mut c = 0;
    while c < 16 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 4 {
            if c >> bit & 1 != 0 {
                k ^= single[bit];
            }
            bit += 1;
        }
        keys.castling[c] = k;
        c += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, k) = splitmix(state);
        state = s;
        keys.ep_file[f] = k;
        f += 1;
    }
    keys
}

pub static KEYS: Keys = build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().copied().collect();
        all.push(KEYS.side);
        all.extend(&KEYS.castling[1..]);
        all.extend(&KEYS.ep_file);
        assert_eq!(KEYS.castling[0], 0);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|&k| k != 0));
    }
}
