package kafka

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
)

// stateLogs are the broker's append-only state files: the consumer
// groups' commits and the producers' ids. kfake writes each entry as a
// frame, a 4-byte length, a CRC-32C of what follows the header, then that
// many bytes (a 2-byte version and the entry).
var stateLogs = []string{"groups.log", "pids.log"}

// trimStateLogs cuts each state log after its last whole entry. A broker
// that died while writing one (a full disk, a kill) leaves it torn at the
// end; kfake reads the log up to the tear but appends after it, so the
// entries it takes afterwards would sit behind the tear, where the next
// start stops reading: after a second crash the groups would go back to
// their offsets of before the first.
func trimStateLogs(dir string, log *slog.Logger) error {
	for _, name := range stateLogs {
		path := filepath.Join(dir, name)
		raw, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("kafka: %w", err)
		}
		whole := wholeEntries(raw)
		if whole == len(raw) {
			continue
		}
		log.Warn("kafka: a state log ends in a torn entry; cutting it off", "file", path, "bytes", len(raw)-whole)
		if err := os.Truncate(path, int64(whole)); err != nil {
			return fmt.Errorf("kafka: %w", err)
		}
	}
	return nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// wholeEntries is the length of raw's run of whole, intact frames from
// its start, read as kfake reads them.
func wholeEntries(raw []byte) int {
	const header = 8 // length and CRC
	pos := 0
	for pos+header+2 <= len(raw) {
		n := int(binary.LittleEndian.Uint32(raw[pos:]))
		if n < 2 || pos+header+n > len(raw) {
			break
		}
		if crc32.Checksum(raw[pos+header:pos+header+n], castagnoli) != binary.LittleEndian.Uint32(raw[pos+4:]) {
			break
		}
		pos += header + n
	}
	return pos
}
