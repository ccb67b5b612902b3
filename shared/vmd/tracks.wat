;; The hot loops of tracks.ts (groupByName, orderKeys, decodeBoneKeys, gatherBits) for large bone and morph blocks, in WebAssembly:
;; unaligned 32-bit loads, no bounds checks, no typed-array views. Compiled to tracks-wasm.gen.ts by
;; build/wasm.mjs (wabt). tracks-wasm.ts lays out the memory and calls these; tracks.ts's own loops
;; stay as the fallback and as the oracle the tests compare with (every result must be the same).
;; Every address is a byte offset into the one imported memory; the block's records start at 0.
(module
  (import "env" "memory" (memory 1))

  ;; The slot of a name (its 15 bytes, the bytes from the first NUL on cleared, as two little-endian i64
  ;; words $a0 and $a1) in a table of 2^(64 - $shift) slots: the top bits of two products xored, which every
  ;; bit of each word reaches; the two multiplies do not wait on each other (tracks.ts's fieldHash chains
  ;; four). Which slot a name takes is seen nowhere outside: spellings are numbered in order of first sight.
  ;; For rehashing; the per-record loop has it written out.
  (func $slot (param $a0 i64) (param $a1 i64) (param $shift i64) (result i32)
    (i32.wrap_i64 (i64.shr_u (i64.xor (i64.mul (local.get $a0) (i64.const 0x9e3779b97f4a7c15))
                                      (i64.mul (local.get $a1) (i64.const 0xc2b2ae3d27d4eb4f)))
                             (local.get $shift))))

  ;; groupByName's loop: each of $n records ($size bytes apart from 0) gets its spelling (the name field's
  ;; bytes up to the NUL), numbered in order of first sight, at $names + 4i; its frame at $frames + 4i;
  ;; with $valueOff >= 0 the word there at $values + 4i. Per spelling s: its 4 words at $words + 16s, its
  ;; records counted at $keys + 4s, its first record at $first + 4s. $table: room for a hash table of
  ;; s + 1 slots per spelling (slot: spelling + 1, 0 empty), at least 1 KB, grown (cleared, refilled)
  ;; past half full. Returns the number of spellings. The name field is read as two i64 words (bytes 0–7,
  ;; 8–14 with the frame's first byte cleared): half the steps of four i32 words, and the same 16 bytes.
  (func (export "group") (param $n i32) (param $size i32) (param $valueOff i32) (param $names i32) (param $frames i32)
      (param $values i32) (param $words i32) (param $keys i32) (param $first i32) (param $table i32) (result i32)
    (local $i i32) (local $o i32) (local $pr i32) (local $mask i32) (local $slot i32) (local $r i32) (local $known i32)
    (local $q i32) (local $k i32)
    (local $x0 i64) (local $x1 i64) (local $p0 i64) (local $p1 i64) (local $a0 i64) (local $a1 i64) (local $z0 i64) (local $z1 i64)
    (local $shift i64)
    (local.set $mask (i32.const 255))
    (local.set $shift (i64.const 56))
    (memory.fill (local.get $table) (i32.const 0) (i32.const 1024))
    (local.set $p1 (i64.const -1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x0 (i64.load (local.get $o)))
        (local.set $x1 (i64.and (i64.load offset=8 (local.get $o)) (i64.const 0x00ffffffffffffff)))
        (i32.store (i32.add (local.get $frames) (i32.shl (local.get $i) (i32.const 2))) (i32.load offset=15 (local.get $o)))
        (if (i32.ge_s (local.get $valueOff) (i32.const 0))
          (then (i32.store (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 2)))
            (i32.load (i32.add (local.get $o) (local.get $valueOff))))))
        (if (i64.ne (i64.or (i64.xor (local.get $x0) (local.get $p0)) (i64.xor (local.get $x1) (local.get $p1))) (i64.const 0))
          (then
            ;; Not the previous record's field: its spelling looked up.
            (local.set $p0 (local.get $x0))
            (local.set $p1 (local.get $x1))
            ;; Bytes from the first NUL on cleared: $z0, $z1 the high bit of each zero byte of a word (and maybe
            ;; of bytes above one: never below); z & -z its lowest; (that >> 7) - 1 keeps the bytes below it
            ;; (all when z is 0); $x1 kept only when $x0 has no NUL. $slot written out here: V8 (Node 20) does
            ;; not inline calls between wasm functions.
            (local.set $z0 (i64.and (i64.and (i64.sub (local.get $x0) (i64.const 0x0101010101010101)) (i64.xor (local.get $x0) (i64.const -1)))
                                    (i64.const 0x8080808080808080)))
            (local.set $z1 (i64.and (i64.and (i64.sub (local.get $x1) (i64.const 0x0101010101010101)) (i64.xor (local.get $x1) (i64.const -1)))
                                    (i64.const 0x8080808080808080)))
            (local.set $a0 (i64.and (local.get $x0) (i64.sub (i64.shr_u (i64.and (local.get $z0) (i64.sub (i64.const 0) (local.get $z0))) (i64.const 7)) (i64.const 1))))
            (local.set $a1 (select
              (i64.and (local.get $x1) (i64.sub (i64.shr_u (i64.and (local.get $z1) (i64.sub (i64.const 0) (local.get $z1))) (i64.const 7)) (i64.const 1)))
              (i64.const 0)
              (i64.eqz (local.get $z0))))
            (local.set $slot (i32.wrap_i64 (i64.shr_u (i64.xor (i64.mul (local.get $a0) (i64.const 0x9e3779b97f4a7c15))
                                                               (i64.mul (local.get $a1) (i64.const 0xc2b2ae3d27d4eb4f)))
                                                      (local.get $shift))))
            (block $found
              (loop $probe
                (local.set $r (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))))
                (br_if $found (i32.eqz (local.get $r)))
                (local.set $q (i32.add (local.get $words) (i32.shl (i32.sub (local.get $r) (i32.const 1)) (i32.const 4))))
                (br_if $found (i64.eqz (i64.or (i64.xor (i64.load (local.get $q)) (local.get $a0))
                                               (i64.xor (i64.load offset=8 (local.get $q)) (local.get $a1)))))
                (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                (br $probe)))
            (if (i32.eqz (local.get $r))
              (then
                ;; A spelling not seen before.
                (local.set $r (i32.add (local.get $known) (i32.const 1)))
                (local.set $q (i32.add (local.get $words) (i32.shl (local.get $known) (i32.const 4))))
                (i64.store (local.get $q) (local.get $a0))
                (i64.store offset=8 (local.get $q) (local.get $a1))
                (i32.store (i32.add (local.get $first) (i32.shl (local.get $known) (i32.const 2))) (local.get $i))
                (i32.store (i32.add (local.get $keys) (i32.shl (local.get $known) (i32.const 2))) (i32.const 0))
                (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))) (local.get $r))
                (local.set $known (local.get $r))
                (if (i32.gt_u (i32.shl (local.get $known) (i32.const 1)) (local.get $mask))
                  (then
                    ;; Past half full: twice the slots (one bit more of the hash), every spelling put back.
                    (local.set $mask (i32.add (i32.shl (local.get $mask) (i32.const 1)) (i32.const 1)))
                    (local.set $shift (i64.sub (local.get $shift) (i64.const 1)))
                    (memory.fill (local.get $table) (i32.const 0) (i32.shl (i32.add (local.get $mask) (i32.const 1)) (i32.const 2)))
                    (local.set $k (i32.const 0))
                    (loop $rehash
                      (local.set $q (i32.add (local.get $words) (i32.shl (local.get $k) (i32.const 4))))
                      (local.set $slot (call $slot (i64.load (local.get $q)) (i64.load offset=8 (local.get $q)) (local.get $shift)))
                      (block $free
                        (loop $step
                          (br_if $free (i32.eqz (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))))))
                          (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                          (br $step)))
                      (local.set $k (i32.add (local.get $k) (i32.const 1)))
                      (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))) (local.get $k))
                      (br_if $rehash (i32.lt_u (local.get $k) (local.get $known))))))))
            (local.set $pr (i32.sub (local.get $r) (i32.const 1)))))
        ;; Here $pr is this record's spelling.
        (i32.store (i32.add (local.get $names) (i32.shl (local.get $i) (i32.const 2))) (local.get $pr))
        (local.set $q (i32.add (local.get $keys) (i32.shl (local.get $pr) (i32.const 2))))
        (i32.store (local.get $q) (i32.add (i32.load (local.get $q)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $o (i32.add (local.get $o) (local.get $size)))
        (br $next)))
    (local.get $known))

  ;; orderKeys' placement: record i (of $n) goes to the next free place of its track, $map[$tracks[i]]
  ;; ($slot: next place per track, from $counts: first place per track); its index to $order and its frame
  ;; ($frames + 4i) to $out there; with $places, the place back into $tracks at i. Counts per track the
  ;; steps down as placed into $descents (zeroed by the caller). Returns 1 when some track has a frame
  ;; twice in a row as placed, else 0.
  (func (export "place") (param $n i32) (param $tracks i32) (param $map i32) (param $frames i32) (param $counts i32) (param $slot i32)
      (param $descents i32) (param $order i32) (param $out i32) (param $places i32) (result i32)
    (local $i i32) (local $t i32) (local $p i32) (local $f i32) (local $before i32) (local $q i32) (local $repeats i32) (local $step i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $q (i32.add (local.get $tracks) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $t (i32.shl (i32.load (i32.add (local.get $map) (i32.shl (i32.load (local.get $q)) (i32.const 2)))) (i32.const 2)))
        (local.set $p (i32.load (i32.add (local.get $slot) (local.get $t))))
        (i32.store (i32.add (local.get $slot) (local.get $t)) (i32.add (local.get $p) (i32.const 1)))
        (local.set $f (i32.load (i32.add (local.get $frames) (i32.shl (local.get $i) (i32.const 2)))))
        (i32.store (i32.add (local.get $order) (i32.shl (local.get $p) (i32.const 2))) (local.get $i))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $p) (i32.const 2))) (local.get $f))
        (if (local.get $places) (then (i32.store (local.get $q) (local.get $p))))
        ;; Steps down and repeats counted without a branch (in a shuffled block half the steps go down, at
        ;; random): $first is 1 at a track's first place, where there is no step.
        (local.set $before (i32.load (i32.sub (i32.add (local.get $out) (i32.shl (local.get $p) (i32.const 2))) (i32.const 4))))
        (local.set $step (i32.gt_u (local.get $p) (i32.load (i32.add (local.get $counts) (local.get $t)))))
        (local.set $q (i32.add (local.get $descents) (local.get $t)))
        (i32.store (local.get $q) (i32.add (i32.load (local.get $q)) (i32.and (local.get $step) (i32.lt_u (local.get $f) (local.get $before)))))
        (local.set $repeats (i32.or (local.get $repeats) (i32.and (local.get $step) (i32.eq (local.get $f) (local.get $before)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $repeats))

  ;; radixRange of tracks.ts: sorts the $m keys at $order/$frames (record index, frame; 4 bytes each) by
  ;; frame, stably, through the scratch at $scratchO/$scratchF, in as few passes of at most 11 bits as
  ;; the largest frame needs. $buckets: 2,048 words.
  (func $radix (export "radix") (param $order i32) (param $frames i32) (param $scratchO i32) (param $scratchF i32) (param $m i32) (param $buckets i32)
    (local $k i32) (local $f i32) (local $max i32) (local $used i32) (local $passes i32) (local $bits i32) (local $mask i32)
    (local $q i32) (local $shift i32) (local $srcO i32) (local $srcF i32) (local $dstO i32) (local $dstF i32)
    (local $d i32) (local $sum i32) (local $c i32) (local $end i32)
    (local.set $end (i32.shl (local.get $m) (i32.const 2)))
    (block $maxed
      (loop $scan
        (br_if $maxed (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $f (i32.load (i32.add (local.get $frames) (local.get $k))))
        (if (i32.gt_u (local.get $f) (local.get $max)) (then (local.set $max (local.get $f))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $scan)))
    ;; Bits used (1 at least), passes = ceil(used / 11), bits per pass = ceil(used / passes).
    (local.set $used (select (i32.sub (i32.const 32) (i32.clz (local.get $max))) (i32.const 1) (local.get $max)))
    (local.set $passes (i32.div_u (i32.add (local.get $used) (i32.const 10)) (i32.const 11)))
    (local.set $bits (i32.div_u (i32.add (local.get $used) (i32.sub (local.get $passes) (i32.const 1))) (local.get $passes)))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $bits)) (i32.const 1)))
    (local.set $q (i32.const 0))
    (loop $pass
      ;; Even passes from the range into the scratch, odd ones back.
      (if (i32.and (local.get $q) (i32.const 1))
        (then (local.set $srcO (local.get $scratchO)) (local.set $srcF (local.get $scratchF))
              (local.set $dstO (local.get $order)) (local.set $dstF (local.get $frames)))
        (else (local.set $srcO (local.get $order)) (local.set $srcF (local.get $frames))
              (local.set $dstO (local.get $scratchO)) (local.set $dstF (local.get $scratchF))))
      (local.set $shift (i32.mul (local.get $q) (local.get $bits)))
      (memory.fill (local.get $buckets) (i32.const 0) (i32.shl (i32.add (local.get $mask) (i32.const 1)) (i32.const 2)))
      (local.set $k (i32.const 0))
      (block $counted
        (loop $count
          (br_if $counted (i32.ge_u (local.get $k) (local.get $end)))
          (local.set $d (i32.add (local.get $buckets) (i32.shl (i32.and (i32.shr_u (i32.load (i32.add (local.get $srcF) (local.get $k))) (local.get $shift)) (local.get $mask)) (i32.const 2))))
          (i32.store (local.get $d) (i32.add (i32.load (local.get $d)) (i32.const 1)))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br $count)))
      ;; Counts to byte offsets of each digit's first place.
      (local.set $d (local.get $buckets))
      (local.set $sum (i32.const 0))
      (local.set $k (i32.add (local.get $buckets) (i32.shl (i32.add (local.get $mask) (i32.const 1)) (i32.const 2))))
      (loop $prefix
        (local.set $c (i32.load (local.get $d)))
        (i32.store (local.get $d) (local.get $sum))
        (local.set $sum (i32.add (local.get $sum) (i32.shl (local.get $c) (i32.const 2))))
        (local.set $d (i32.add (local.get $d) (i32.const 4)))
        (br_if $prefix (i32.lt_u (local.get $d) (local.get $k))))
      (local.set $k (i32.const 0))
      (block $scattered
        (loop $scatter
          (br_if $scattered (i32.ge_u (local.get $k) (local.get $end)))
          (local.set $f (i32.load (i32.add (local.get $srcF) (local.get $k))))
          (local.set $d (i32.add (local.get $buckets) (i32.shl (i32.and (i32.shr_u (local.get $f) (local.get $shift)) (local.get $mask)) (i32.const 2))))
          (local.set $c (i32.load (local.get $d)))
          (i32.store (local.get $d) (i32.add (local.get $c) (i32.const 4)))
          (i32.store (i32.add (local.get $dstO) (local.get $c)) (i32.load (i32.add (local.get $srcO) (local.get $k))))
          (i32.store (i32.add (local.get $dstF) (local.get $c)) (local.get $f))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br $scatter)))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (br_if $pass (i32.lt_u (local.get $q) (local.get $passes))))
    (if (i32.and (local.get $passes) (i32.const 1))
      (then
        (memory.copy (local.get $order) (local.get $scratchO) (local.get $end))
        (memory.copy (local.get $frames) (local.get $scratchF) (local.get $end)))))

  ;; decodeBoneKeys of tracks.ts: bone record i (of $n, 111 bytes apart from 0) to key $dest[i] (-1: dropped,
  ;; skipped), in file order: position (3 words) at $pos + 12k, rotation (4) at $rot + 16k, its bits as
  ;; stored; the four channels' curves at $curves + 16k, row 0 transposed to (x1, y1, x2, y2) per channel,
  ;; with x1 of Z and rotation from bytes 17 and 18 when rows 1–3 hold anything (see decodeBoneKey).
  (func (export "decode") (param $n i32) (param $dest i32) (param $pos i32) (param $rot i32) (param $curves i32)
    (local $i i32) (local $o i32) (local $k i32) (local $q i32)
    (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $k (i32.load (i32.add (local.get $dest) (i32.shl (local.get $i) (i32.const 2)))))
        (if (i32.ne (local.get $k) (i32.const -1))
          (then
            ;; Position at record + 19, rotation at + 31.
            (local.set $q (i32.add (local.get $pos) (i32.mul (local.get $k) (i32.const 12))))
            (i64.store (local.get $q) (i64.load offset=19 (local.get $o)))
            (i32.store offset=8 (local.get $q) (i32.load offset=27 (local.get $o)))
            (local.set $q (i32.add (local.get $rot) (i32.shl (local.get $k) (i32.const 4))))
            (i64.store (local.get $q) (i64.load offset=31 (local.get $o)))
            (i64.store offset=8 (local.get $q) (i64.load offset=39 (local.get $o)))
            ;; Interpolation at record + 47: row 0 is bytes 47–62; rows 1–3 (bytes 63–110) as 6 words of 8 bytes.
            (local.set $w0 (i32.load offset=47 (local.get $o)))
            (if (i64.ne (i64.or (i64.or (i64.or (i64.load offset=63 (local.get $o)) (i64.load offset=71 (local.get $o)))
                                        (i64.or (i64.load offset=79 (local.get $o)) (i64.load offset=87 (local.get $o))))
                                (i64.or (i64.load offset=95 (local.get $o)) (i64.load offset=103 (local.get $o))))
                        (i64.const 0))
              (then (local.set $w0 (i32.or (i32.and (local.get $w0) (i32.const 0xffff))
                                           (i32.shl (i32.load16_u offset=64 (local.get $o)) (i32.const 16))))))
            (local.set $w1 (i32.load offset=51 (local.get $o)))
            (local.set $w2 (i32.load offset=55 (local.get $o)))
            (local.set $w3 (i32.load offset=59 (local.get $o)))
            (local.set $q (i32.add (local.get $curves) (i32.shl (local.get $k) (i32.const 4))))
            (i32.store (local.get $q) (i32.or
              (i32.or (i32.and (local.get $w0) (i32.const 0xff)) (i32.shl (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 8)))
              (i32.or (i32.shl (i32.and (local.get $w2) (i32.const 0xff)) (i32.const 16)) (i32.shl (local.get $w3) (i32.const 24)))))
            (i32.store offset=4 (local.get $q) (i32.or
              (i32.or (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.and (local.get $w1) (i32.const 0xff00)))
              (i32.or (i32.shl (i32.and (local.get $w2) (i32.const 0xff00)) (i32.const 8)) (i32.shl (i32.and (local.get $w3) (i32.const 0xff00)) (i32.const 16)))))
            (i32.store offset=8 (local.get $q) (i32.or
              (i32.or (i32.and (i32.shr_u (local.get $w0) (i32.const 16)) (i32.const 0xff)) (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff00)))
              (i32.or (i32.and (local.get $w2) (i32.const 0xff0000)) (i32.shl (i32.and (local.get $w3) (i32.const 0xff0000)) (i32.const 8)))))
            (i32.store offset=12 (local.get $q) (i32.or
              (i32.or (i32.shr_u (local.get $w0) (i32.const 24)) (i32.and (i32.shr_u (local.get $w1) (i32.const 16)) (i32.const 0xff00)))
              (i32.or (i32.and (i32.shr_u (local.get $w2) (i32.const 8)) (i32.const 0xff0000)) (i32.and (local.get $w3) (i32.const 0xff000000)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $o (i32.add (local.get $o) (i32.const 111)))
        (br $next)))
  )

  ;; gatherBits of tracks.ts: the word $bits[$record[k]] to $out + 4k, for each of the $m keys.
  (func (export "gather") (param $m i32) (param $record i32) (param $bits i32) (param $out i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (i32.store (local.get $out) (i32.load (i32.add (local.get $bits) (i32.shl (i32.load (local.get $record)) (i32.const 2)))))
        (local.set $record (i32.add (local.get $record) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $next)))
  )

  ;; The loop after `place` in tracks.ts (groupAndOrderInWasm): each of the $tracks tracks with steps down
  ;; ($descents + 4t) sorted on its places [$counts[t], $counts[t + 1]) of $order/$frames, as orderKeys sorts
  ;; it: in no order (inNoOrder) by $radix; else by $insertion, and by $radix then $ties where that gives
  ;; up. Then $placed: with $places, each key's place into $dest at its record. Returns 1 when a sorted
  ;; track has a frame twice in a row, else 0.
  (func (export "sort") (param $tracks i32) (param $counts i32) (param $descents i32) (param $order i32) (param $frames i32)
      (param $dest i32) (param $places i32) (param $scratchO i32) (param $scratchF i32) (param $buckets i32) (result i32)
    (local $t i32) (local $d i32) (local $a i32) (local $m i32) (local $o i32) (local $f i32) (local $noOrder i32) (local $repeats i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $t) (local.get $tracks)))
        (local.set $d (i32.load (i32.add (local.get $descents) (i32.shl (local.get $t) (i32.const 2)))))
        (if (local.get $d)
          (then
            (local.set $a (i32.load (i32.add (local.get $counts) (i32.shl (local.get $t) (i32.const 2)))))
            (local.set $m (i32.sub (i32.load offset=4 (i32.add (local.get $counts) (i32.shl (local.get $t) (i32.const 2)))) (local.get $a)))
            (local.set $o (i32.add (local.get $order) (i32.shl (local.get $a) (i32.const 2))))
            (local.set $f (i32.add (local.get $frames) (i32.shl (local.get $a) (i32.const 2))))
            ;; inNoOrder: 64 keys or more, 7/16 to 9/16 of the steps down.
            (local.set $noOrder (i32.and (i32.ge_u (local.get $m) (i32.const 64))
              (i32.and (i32.gt_u (i32.shl (local.get $d) (i32.const 4)) (i32.mul (local.get $m) (i32.const 7)))
                       (i32.lt_u (i32.shl (local.get $d) (i32.const 4)) (i32.mul (local.get $m) (i32.const 9))))))
            (if (local.get $noOrder)
              (then (call $radix (local.get $o) (local.get $f) (local.get $scratchO) (local.get $scratchF) (local.get $m) (local.get $buckets)))
              (else
                (if (i32.eqz (call $insertion (local.get $o) (local.get $f) (local.get $m) (local.get $d)))
                  (then
                    (call $radix (local.get $o) (local.get $f) (local.get $scratchO) (local.get $scratchF) (local.get $m) (local.get $buckets))
                    (call $ties (local.get $o) (local.get $f) (local.get $m))))))
            (local.set $repeats (i32.or (local.get $repeats)
              (call $placed (local.get $o) (local.get $f) (local.get $m) (local.get $a) (local.get $dest) (local.get $places))))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $next)))
    (local.get $repeats))

  ;; sortRange of tracks.ts on the $m keys at $o/$f (record index, frame; $d steps down among them): reversed
  ;; first when most steps go down, then insertion sort; past a budget of 4m + 512 moves it stops and
  ;; returns 0, the keys left permuted. Sorted, it puts a reversed range's equal frames back in file order
  ;; and returns 1. Addresses are bytes: $k and $j run over 4 × key.
  (func $insertion (param $o i32) (param $f i32) (param $m i32) (param $d i32) (result i32)
    (local $reversed i32) (local $i i32) (local $j i32) (local $k i32) (local $end i32) (local $x i32) (local $r i32)
    (local $budget i32) (local $moves i32)
    (local.set $end (i32.shl (local.get $m) (i32.const 2)))
    (local.set $reversed (i32.gt_u (i32.shl (local.get $d) (i32.const 1)) (local.get $m)))
    (if (local.get $reversed)
      (then
        (local.set $j (i32.sub (local.get $end) (i32.const 4)))
        (block $swapped
          (loop $swap
            (br_if $swapped (i32.ge_s (local.get $i) (local.get $j)))
            (local.set $x (i32.load (i32.add (local.get $f) (local.get $i))))
            (i32.store (i32.add (local.get $f) (local.get $i)) (i32.load (i32.add (local.get $f) (local.get $j))))
            (i32.store (i32.add (local.get $f) (local.get $j)) (local.get $x))
            (local.set $x (i32.load (i32.add (local.get $o) (local.get $i))))
            (i32.store (i32.add (local.get $o) (local.get $i)) (i32.load (i32.add (local.get $o) (local.get $j))))
            (i32.store (i32.add (local.get $o) (local.get $j)) (local.get $x))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (local.set $j (i32.sub (local.get $j) (i32.const 4)))
            (br $swap)))))
    (local.set $budget (i32.add (i32.shl (local.get $m) (i32.const 2)) (i32.const 512)))
    (local.set $k (i32.const 4))
    (block $sorted
      (loop $next
        (br_if $sorted (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $x (i32.load (i32.add (local.get $f) (local.get $k))))
        (if (i32.lt_u (local.get $x) (i32.load (i32.sub (i32.add (local.get $f) (local.get $k)) (i32.const 4))))
          (then
            (local.set $r (i32.load (i32.add (local.get $o) (local.get $k))))
            (local.set $j (i32.sub (local.get $k) (i32.const 4)))
            (block $placed
              (loop $shift
                (br_if $placed (i32.lt_s (local.get $j) (i32.const 0)))
                (br_if $placed (i32.le_u (i32.load (i32.add (local.get $f) (local.get $j))) (local.get $x)))
                (i32.store offset=4 (i32.add (local.get $f) (local.get $j)) (i32.load (i32.add (local.get $f) (local.get $j))))
                (i32.store offset=4 (i32.add (local.get $o) (local.get $j)) (i32.load (i32.add (local.get $o) (local.get $j))))
                (local.set $j (i32.sub (local.get $j) (i32.const 4)))
                (br $shift)))
            (i32.store offset=4 (i32.add (local.get $f) (local.get $j)) (local.get $x))
            (i32.store offset=4 (i32.add (local.get $o) (local.get $j)) (local.get $r))
            ;; moves += k - 1 - j, in keys.
            (local.set $moves (i32.add (local.get $moves)
              (i32.shr_s (i32.sub (i32.sub (local.get $k) (i32.const 4)) (local.get $j)) (i32.const 2))))
            (if (i32.gt_u (local.get $moves) (local.get $budget)) (then (return (i32.const 0))))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $next)))
    (if (local.get $reversed) (then (call $ties (local.get $o) (local.get $f) (local.get $m))))
    (i32.const 1))

  ;; tiesInFileOrder of tracks.ts: within each run of equal frames of the sorted $m keys at $o/$f, the
  ;; record indices ascending.
  (func $ties (param $o i32) (param $f i32) (param $m i32)
    (local $k i32) (local $j i32) (local $end i32) (local $x i32) (local $r i32)
    (local.set $end (i32.shl (local.get $m) (i32.const 2)))
    (local.set $k (i32.const 4))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $x (i32.load (i32.add (local.get $f) (local.get $k))))
        (local.set $r (i32.load (i32.add (local.get $o) (local.get $k))))
        (if (i32.and (i32.eq (local.get $x) (i32.load (i32.sub (i32.add (local.get $f) (local.get $k)) (i32.const 4))))
                     (i32.le_u (local.get $r) (i32.load (i32.sub (i32.add (local.get $o) (local.get $k)) (i32.const 4)))))
          (then
            (local.set $j (i32.sub (local.get $k) (i32.const 4)))
            (block $placed
              (loop $shift
                (br_if $placed (i32.lt_s (local.get $j) (i32.const 0)))
                (br_if $placed (i32.ne (i32.load (i32.add (local.get $f) (local.get $j))) (local.get $x)))
                (br_if $placed (i32.le_u (i32.load (i32.add (local.get $o) (local.get $j))) (local.get $r)))
                (i32.store offset=4 (i32.add (local.get $o) (local.get $j)) (i32.load (i32.add (local.get $o) (local.get $j))))
                (local.set $j (i32.sub (local.get $j) (i32.const 4)))
                (br $shift)))
            (i32.store offset=4 (i32.add (local.get $o) (local.get $j)) (local.get $r))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $next))))

  ;; placeSorted of tracks.ts on the sorted $m keys at $o/$f, the track's places starting at $a: with
  ;; $places, place $a + k into $dest at key k's record. Returns 1 when a frame comes twice in a row.
  (func $placed (param $o i32) (param $f i32) (param $m i32) (param $a i32) (param $dest i32) (param $places i32) (result i32)
    (local $k i32) (local $repeats i32)
    (if (local.get $places)
      (then (i32.store (i32.add (local.get $dest) (i32.shl (i32.load (local.get $o)) (i32.const 2))) (local.get $a))))
    (local.set $k (i32.const 1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $m)))
        (if (local.get $places)
          (then (i32.store (i32.add (local.get $dest) (i32.shl (i32.load (i32.add (local.get $o) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
                  (i32.add (local.get $a) (local.get $k)))))
        (if (i32.eq (i32.load (i32.add (local.get $f) (i32.shl (local.get $k) (i32.const 2))))
                    (i32.load (i32.sub (i32.add (local.get $f) (i32.shl (local.get $k) (i32.const 2))) (i32.const 4))))
          (then (local.set $repeats (i32.const 1))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $repeats))

  ;; dropDuplicates of tracks.ts: of the $n keys at $order/$frames, sorted by (track, frame, file order) with
  ;; track t on places [$counts[t], $counts[t + 1]), each track's first key of a frame kept, moved down in
  ;; place; track t's first kept place to $start + 4t ($tracks + 1 words). With $places, $dest (n words)
  ;; becomes each record's kept place, or -1 (DROPPED) for a dropped one. Returns the keys kept.
  (func (export "dedup") (param $n i32) (param $tracks i32) (param $counts i32) (param $order i32) (param $frames i32)
      (param $dest i32) (param $places i32) (param $start i32) (result i32)
    (local $t i32) (local $k i32) (local $b i32) (local $w i32) (local $f i32) (local $r i32)
    (if (local.get $places) (then (memory.fill (local.get $dest) (i32.const 0xff) (i32.shl (local.get $n) (i32.const 2)))))
    (block $done
      (loop $track
        (br_if $done (i32.ge_u (local.get $t) (local.get $tracks)))
        (i32.store (i32.add (local.get $start) (i32.shl (local.get $t) (i32.const 2))) (local.get $w))
        (local.set $k (i32.load (i32.add (local.get $counts) (i32.shl (local.get $t) (i32.const 2)))))
        (local.set $b (i32.load offset=4 (i32.add (local.get $counts) (i32.shl (local.get $t) (i32.const 2)))))
        (block $kept
          (loop $key
            (br_if $kept (i32.ge_u (local.get $k) (local.get $b)))
            (local.set $f (i32.load (i32.add (local.get $frames) (i32.shl (local.get $k) (i32.const 2)))))
            ;; The frame before is still the one sorted there: writes go to places at or below k.
            (if (i32.or (i32.eq (local.get $k) (i32.load (i32.add (local.get $counts) (i32.shl (local.get $t) (i32.const 2)))))
                        (i32.ne (local.get $f) (i32.load (i32.sub (i32.add (local.get $frames) (i32.shl (local.get $k) (i32.const 2))) (i32.const 4)))))
              (then
                (local.set $r (i32.load (i32.add (local.get $order) (i32.shl (local.get $k) (i32.const 2)))))
                (i32.store (i32.add (local.get $order) (i32.shl (local.get $w) (i32.const 2))) (local.get $r))
                (i32.store (i32.add (local.get $frames) (i32.shl (local.get $w) (i32.const 2))) (local.get $f))
                (if (local.get $places) (then (i32.store (i32.add (local.get $dest) (i32.shl (local.get $r) (i32.const 2))) (local.get $w))))
                (local.set $w (i32.add (local.get $w) (i32.const 1)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $key)))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $track)))
    (i32.store (i32.add (local.get $start) (i32.shl (local.get $tracks) (i32.const 2))) (local.get $w))
    (local.get $w))
)
