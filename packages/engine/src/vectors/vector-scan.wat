;; The vector kernels of anamnesis: dot products of one query with many rows (WebAssembly SIMD).
;; `scan`: float32 rows, 4 lanes at a time; rows are `stride` f32 apart (stride % 4 == 0, zero
;; padded); the query is padded the same way. `scan_i8`: int8 rows, 16 lanes at a time, exact
;; integer sums scaled by each row's float32 scale. Compiled to vector-scan-module.ts (base64) by
;; scripts/build-wasm.ts.
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
)
