;; The vector kernel of anamnesis: dot products of one query with many rows, 4 lanes at a time
;; (WebAssembly SIMD). Rows are `stride` f32 apart (stride % 4 == 0, zero padded); the query is
;; padded the same way. Compiled to vector-scan.ts (base64) by scripts/build-wasm.ts.
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
      (br $rowloop)))))
