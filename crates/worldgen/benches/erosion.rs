//! The erosion filter's cost per point (`worldgen::erosion`, not yet used by any
//! generator): 64 x 64 columns 3 blocks apart on the flank of a cone, with the default
//! parameters (5 octaves) and with 3 octaves, near the origin and 2^29 blocks out.

#![allow(missing_docs)] // criterion_group! and criterion_main! generate undocumented items.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use terravox_worldgen::erosion::{Erosion, ErosionParams};

/// The grid's columns relative to the cone's top: position, gradient, fade target.
fn columns() -> Vec<([f64; 2], [f64; 2], f64)> {
    let mut v = Vec::new();
    for i in 0..64 {
        for j in 0..64 {
            let (x, z) = (40.0 + i as f64 * 3.0, -90.0 + j as f64 * 3.0);
            let r = (x * x + z * z).sqrt();
            let h = 200.0 - 0.8 * r;
            v.push((
                [x, z],
                [-0.8 * x / r, -0.8 * z / r],
                ((h - 100.0) / 60.0).clamp(-1.0, 1.0),
            ));
        }
    }
    v
}

fn erosion(c: &mut Criterion) {
    let columns = columns();
    let mut group = c.benchmark_group("erosion");
    group.throughput(Throughput::Elements(columns.len() as u64));
    for octaves in [5, 3] {
        let e = Erosion::new(
            &ErosionParams {
                octaves,
                ..ErosionParams::default()
            },
            42,
        )
        .expect("valid parameters");
        for (name, origin) in [("near", 0.0), ("far", (1u64 << 29) as f64)] {
            let id = BenchmarkId::new(format!("{octaves}_octaves"), name);
            group.bench_function(id, |b| {
                b.iter(|| {
                    let mut sum = 0.0;
                    for &([x, z], g, fade) in &columns {
                        sum += e.apply(origin + x, z - origin, g, fade).height_offset;
                    }
                    black_box(sum)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, erosion);
criterion_main!(benches);
