package feed

import "encoding/json"

var (
	jsonMarshal   = json.Marshal
	jsonUnmarshal = json.Unmarshal
)
