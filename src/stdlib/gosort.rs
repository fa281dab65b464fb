//! Go's `sort.Stable`, step for step: insertion sorts of blocks of 20, then in-place merges
//! (`SymMerge`). starlark-go's `sorted` sorts with it and keeps the last comparison error it
//! met, so an ordering error names the pair Go's algorithm compared last; only the same
//! sequence of comparisons gives the same message. The result of a consistent ordering is the
//! same as any stable sort's.

/// Sorts `data` stably by `less`, comparing pairs in the order Go's `sort.Stable` does.
pub fn stable<T>(data: &mut [T], less: &mut dyn FnMut(&T, &T) -> bool) {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less);
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(data, a, a + block, b, less);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, less);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(data: &mut [T], a: usize, b: usize, less: &mut dyn FnMut(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Merges the sorted runs `data[a..m]` and `data[m..b]` in place.
fn sym_merge<T>(
    data: &mut [T],
    a: usize,
    m: usize,
    b: usize,
    less: &mut dyn FnMut(&T, &T) -> bool,
) {
    if m - a == 1 {
        // Binary search for where `data[a]` goes in `data[m..b]`, then rotate it there.
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&data[h], &data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i.saturating_sub(1) {
            data.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&data[m], &data[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&data[p - c], &data[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less);
    }
}

/// Swaps the blocks `data[a..m]` and `data[m..b]` with Go's sequence of range swaps.
fn rotate<T>(data: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range<T>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the test needs no dependency.
    fn numbers(seed: u64, n: usize, modulo: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 33) % modulo
            })
            .collect()
    }

    #[test]
    fn it_sorts_stably_at_every_size() {
        for n in [0, 1, 2, 19, 20, 21, 39, 40, 41, 100, 257, 1000] {
            for seed in 0..4 {
                // Pairs of (key, original position): equal keys must keep their order.
                let mut v: Vec<(u64, usize)> = numbers(seed, n, 7)
                    .into_iter()
                    .enumerate()
                    .map(|(i, k)| (k, i))
                    .collect();
                let mut want = v.clone();
                want.sort_by_key(|p| p.0);
                stable(&mut v, &mut |x, y| x.0 < y.0);
                assert_eq!(v, want, "n={n} seed={seed}");
            }
        }
    }

    #[test]
    fn a_reversed_order_sorts_descending_and_stays_stable() {
        let mut v: Vec<(u64, usize)> = numbers(9, 300, 5)
            .into_iter()
            .enumerate()
            .map(|(i, k)| (k, i))
            .collect();
        let mut want = v.clone();
        // Go's sort.Reverse: less(i, j) is less(j, i); equal keys keep their order.
        want.sort_by_key(|p| std::cmp::Reverse(p.0));
        stable(&mut v, &mut |x, y| y.0 < x.0);
        assert_eq!(v, want);
    }

    #[test]
    fn small_inputs_compare_in_insertion_order() {
        // Go's insertion sort compares (1, 0) first, then (2, 1): the log is its sequence.
        let mut log = Vec::new();
        let mut v = vec![3, 1, 2];
        stable(&mut v, &mut |x: &i32, y: &i32| {
            log.push((*x, *y));
            x < y
        });
        assert_eq!(v, vec![1, 2, 3]);
        assert_eq!(log, vec![(1, 3), (2, 3), (2, 1)]);
    }
}
