;; The vector kernels of anamnesis: dot products of one query with many rows (WebAssembly SIMD).
;; `scan`: float32 rows, 4 lanes at a time; rows are `stride` f32 apart (stride % 4 == 0, zero
;; padded); the query is padded the same way. `scan_i8`: int8 rows, 16 lanes at a time, exact
;; integer sums scaled by each row's float32 scale. `above`: which of many scores reach a floor,
;; 16 at a time. Compiled to vector-scan-module.ts (base64) by scripts/build-wasm.ts.
(module
  (memory (export "memory") 1)
  ;; out[r] = dot(rows[r], query) for r in [0, n)
  (func (export "scan") (param $rows i32) (param $q i32) (param $out i32) (param $n i32) (param $stride i32)
    (local $r i32) (local $i i32) (local $acc v128) (local $bytes i32) (local $p i32)
    (local.set $bytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $p (local.get $rows))
    (block $done (loop $rowloop
      (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
      (local.set $acc (v128.const f32x4 0 0 0 0))
      (local.set $i (i32.const 0))
      (block $d2 (loop $inner
        (br_if $d2 (i32.ge_u (local.get $i) (local.get $bytes)))
        (local.set $acc (f32x4.add (local.get $acc)
          (f32x4.mul (v128.load (i32.add (local.get $p) (local.get $i)))
                     (v128.load (i32.add (local.get $q) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $inner)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
        (f32.add (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
                 (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
      (local.set $p (i32.add (local.get $p) (local.get $bytes)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rowloop))))
  ;; out[r] = f32(dot(rows[r], query)) * scales[r] for r in [0, n): int8 rows `stride` bytes apart
  ;; (stride % 16 == 0, zero padded), an int8 query padded the same way. The integer dot product is
  ;; exact (|sum| <= 127 * 127 * stride < 2^24, so it also converts to f32 exactly).
  (func (export "scan_i8") (param $rows i32) (param $q i32) (param $scales i32) (param $out i32) (param $n i32) (param $stride i32)
    (local $r i32) (local $i i32) (local $acc v128) (local $p i32) (local $a v128) (local $b v128)
    (local.set $p (local.get $rows))
    (block $done (loop $rowloop
      (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
      (local.set $acc (v128.const i32x4 0 0 0 0))
      (local.set $i (i32.const 0))
      (block $d2 (loop $inner
        (br_if $d2 (i32.ge_u (local.get $i) (local.get $stride)))
        (local.set $a (v128.load (i32.add (local.get $p) (local.get $i))))
        (local.set $b (v128.load (i32.add (local.get $q) (local.get $i))))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b)))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $inner)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
        (f32.mul
          (f32.convert_i32_s
            (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
              (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
          (f32.load (i32.add (local.get $scales) (i32.shl (local.get $r) (i32.const 2))))))
      (local.set $p (i32.add (local.get $p) (local.get $stride)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rowloop))))
  ;; Writes to out (i32 each), in order, the r in [0, n) with scores[r] >= floor (f32 compare: a
  ;; NaN never does) and returns how many; stops at max of them and returns max + 1 when more
  ;; reach it. Scores are read 16 at a time and a group none of which reaches the floor costs one
  ;; test; the last n % 16 one by one.
  (func (export "above") (param $scores i32) (param $n i32) (param $floor f32) (param $out i32) (param $max i32) (result i32)
    (local $r i32) (local $count i32) (local $f v128) (local $end i32) (local $k i32) (local $p i32) (local $stop i32)
    (local.set $f (f32x4.splat (local.get $floor)))
    (local.set $end (i32.and (local.get $n) (i32.const -16)))
    (block $done (loop $groups
      (br_if $done (i32.ge_u (local.get $r) (local.get $end)))
      (local.set $p (i32.add (local.get $scores) (i32.shl (local.get $r) (i32.const 2))))
      (if (v128.any_true
            (v128.or
              (v128.or (f32x4.ge (v128.load (local.get $p)) (local.get $f))
                       (f32x4.ge (v128.load offset=16 (local.get $p)) (local.get $f)))
              (v128.or (f32x4.ge (v128.load offset=32 (local.get $p)) (local.get $f))
                       (f32x4.ge (v128.load offset=48 (local.get $p)) (local.get $f)))))
        (then
          (local.set $k (local.get $r))
          (local.set $stop (i32.add (local.get $r) (i32.const 16)))
          (loop $one
            (if (f32.ge (f32.load (i32.add (local.get $scores) (i32.shl (local.get $k) (i32.const 2)))) (local.get $floor))
              (then
                (if (i32.ge_u (local.get $count) (local.get $max))
                  (then (return (i32.add (local.get $max) (i32.const 1)))))
                (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))) (local.get $k))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br_if $one (i32.lt_u (local.get $k) (local.get $stop))))))
      (local.set $r (i32.add (local.get $r) (i32.const 16)))
      (br $groups)))
    (block $tdone (loop $tail
      (br_if $tdone (i32.ge_u (local.get $r) (local.get $n)))
      (if (f32.ge (f32.load (i32.add (local.get $scores) (i32.shl (local.get $r) (i32.const 2)))) (local.get $floor))
        (then
          (if (i32.ge_u (local.get $count) (local.get $max))
            (then (return (i32.add (local.get $max) (i32.const 1)))))
          (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))) (local.get $r))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $tail)))
    (local.get $count))
)
