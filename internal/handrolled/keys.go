package handrolled

import "hash/maphash"

// linearKeys is how many keys an object holds before its duplicate check
// moves from comparing with every earlier key to a hash set: a new key is
// compared with at most linearKeys others.
const linearKeys = 16

// keySet is an open-addressing hash set of one object's keys. A slot holds
// 1 + the key's index among the object's keys, or 0 when empty. The table is
// at least twice as large as the keys it holds.
type keySet struct {
	slots []uint32
}

// addKey adds the key just read, t.keyBuf[t.keyAt:], to the keys of the
// object f, and reports false if the object already has it.
func (t *Tokenizer) addKey(f *frame) bool {
	key := t.keyBuf[t.keyAt:]
	if f.set == 0 {
		for _, s := range t.keys[f.keyStart:] {
			if s.end-s.start == len(key) {
				t.work++
				if string(t.keyBuf[s.start:s.end]) == string(key) {
					return false
				}
			}
		}
		t.keys = append(t.keys, span{t.keyAt, len(t.keyBuf)})
		if len(t.keys)-f.keyStart > linearKeys {
			t.hashKeys(f)
		}
		return true
	}
	set := &t.sets[f.set-1]
	if !t.insert(f, set, key, uint32(len(t.keys)-f.keyStart)) {
		return false
	}
	t.keys = append(t.keys, span{t.keyAt, len(t.keyBuf)})
	if n := len(t.keys) - f.keyStart; 2*n > len(set.slots) {
		t.rehash(f, set, 2*len(set.slots))
	}
	return true
}

// hashKeys gives the object f a key set holding its keys.
func (t *Tokenizer) hashKeys(f *frame) {
	if t.nsets == len(t.sets) {
		t.sets = append(t.sets, keySet{})
	}
	t.nsets++
	f.set = int32(t.nsets)
	t.rehash(f, &t.sets[t.nsets-1], 4*linearKeys)
}

// rehash sizes set to size slots (a power of two) and inserts f's keys.
func (t *Tokenizer) rehash(f *frame, set *keySet, size int) {
	if cap(set.slots) >= size {
		set.slots = set.slots[:size]
		clear(set.slots)
	} else {
		set.slots = make([]uint32, size)
	}
	for i, s := range t.keys[f.keyStart:] {
		t.insert(f, set, t.keyBuf[s.start:s.end], uint32(i))
	}
}

// insert adds key, the object's key number i, to set unless set has it.
func (t *Tokenizer) insert(f *frame, set *keySet, key []byte, i uint32) bool {
	mask := uint64(len(set.slots) - 1)
	for h := maphash.Bytes(t.seed, key) & mask; ; h = (h + 1) & mask {
		t.work++
		v := set.slots[h]
		if v == 0 {
			set.slots[h] = i + 1
			return true
		}
		s := t.keys[f.keyStart+int(v-1)]
		if s.end-s.start == len(key) && string(t.keyBuf[s.start:s.end]) == string(key) {
			return false
		}
	}
}

// popKeys forgets the keys of the object f, which is closing.
func (t *Tokenizer) popKeys(f *frame) {
	if f.keyStart < len(t.keys) {
		t.keyBuf = t.keyBuf[:t.keys[f.keyStart].start]
		t.keys = t.keys[:f.keyStart]
	}
	if f.set != 0 {
		t.work += int64(len(t.sets[f.set-1].slots))
		clear(t.sets[f.set-1].slots)
		t.nsets--
	}
}
