package feed

import (
	"strconv"

	j "agora/internal/plumbing/jsonappend"
)

// AppendJSON appends the page as encoding/json marshals it (the json tags
// of Thread, Post, Reply, Creator and Stats), without its reflection: for
// the feed that took a third of the API's own CPU per page (cmd/bench
// -only feed, profiled). TestAppendJSONIsMarshal holds the two to the
// same bytes.
func (p ThreadPage) AppendJSON(b []byte) ([]byte, error) {
	if p.Results == nil {
		return append(b, `{"results":null}`...), nil
	}
	b = append(b, `{"results":[`...)
	for i, t := range p.Results {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = t.appendJSON(b); err != nil {
			return b, err
		}
	}
	return append(b, "]}"...), nil
}

func (t *Thread) appendJSON(b []byte) ([]byte, error) {
	if t == nil {
		return append(b, "null"...), nil
	}
	p := &t.Post
	b = append(b, `{"id":`...)
	b = j.UUID(b, p.ID)
	b = append(b, `,"channelId":`...)
	b = j.UUID(b, p.ChannelID)
	b = append(b, `,"seriesId":`...)
	b = j.UUID(b, p.SeriesID)
	b = append(b, `,"type":`...)
	b = j.String(b, p.Type)
	b = append(b, `,"creatorAs":`...)
	b = j.String(b, p.CreatorAs)
	b = append(b, `,"creatorId":`...)
	b = j.UUIDPtr(b, p.CreatorID)
	b = append(b, `,"creator":`...)
	b = p.Creator.appendJSON(b)
	b = append(b, `,"raw":`...)
	b = j.String(b, p.Raw)
	var err error
	for _, f := range [...]struct {
		name string
		raw  []byte
	}{{`,"image":`, p.Image}, {`,"file":`, p.File}, {`,"link":`, p.Link}, {`,"meeting":`, p.Meeting}, {`,"chat":`, p.Chat}} {
		b = append(b, f.name...)
		if b, err = j.Raw(b, f.raw); err != nil {
			return b, err
		}
	}
	b = append(b, `,"mentions":`...)
	b = j.Strings(b, p.Mentions)
	b = append(b, `,"hashtags":`...)
	b = j.Strings(b, p.Hashtags)
	b = append(b, `,"reactions":`...)
	b = p.Reactions.appendJSON(b)
	b = append(b, `,"createdOn":`...)
	b = p.CreatedOn.AppendJSON(b)
	b = append(b, `,"updatedOn":`...)
	b = p.UpdatedOn.AppendJSON(b)
	b = append(b, `,"myReaction":`...)
	b = j.StringPtr(b, t.MyReaction)
	b = append(b, `,"canManage":`...)
	b = j.Bool(b, t.CanManage)
	b = append(b, `,"isMine":`...)
	b = j.Bool(b, t.IsMine)
	b = append(b, `,"repliesCount":`...)
	b = strconv.AppendInt(b, int64(t.RepliesCount), 10)
	b = append(b, `,"commentsCount":`...)
	b = strconv.AppendInt(b, int64(t.CommentsCount), 10)
	b = append(b, `,"replies":`...)
	b = j.List(b, t.Replies, appendReply)
	return append(b, '}'), nil
}

func appendReply(b []byte, r *Reply) []byte { return r.appendJSON(b) }

func (r *Reply) appendJSON(b []byte) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"id":`...)
	b = j.UUID(b, r.ID)
	b = append(b, `,"threadId":`...)
	b = j.UUID(b, r.ThreadID)
	b = append(b, `,"parentId":`...)
	b = j.UUIDPtr(b, r.ParentID)
	b = append(b, `,"creatorId":`...)
	b = j.UUID(b, r.CreatorID)
	b = append(b, `,"creator":`...)
	b = r.Creator.appendJSON(b)
	b = append(b, `,"raw":`...)
	b = j.String(b, r.Raw)
	b = append(b, `,"mentions":`...)
	b = j.Strings(b, r.Mentions)
	b = append(b, `,"hashtags":`...)
	b = j.Strings(b, r.Hashtags)
	b = append(b, `,"reactions":`...)
	b = r.Reactions.appendJSON(b)
	b = append(b, `,"myReaction":`...)
	b = j.StringPtr(b, r.MyReaction)
	b = append(b, `,"canManage":`...)
	b = j.Bool(b, r.CanManage)
	b = append(b, `,"repliesCount":`...)
	b = strconv.AppendInt(b, int64(r.RepliesCount), 10)
	b = append(b, `,"replies":`...)
	b = j.List(b, r.Replies, appendReply)
	b = append(b, `,"createdOn":`...)
	b = r.CreatedOn.AppendJSON(b)
	b = append(b, `,"updatedOn":`...)
	b = r.UpdatedOn.AppendJSON(b)
	return append(b, '}')
}

func (c *Creator) appendJSON(b []byte) []byte {
	if c == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"userId":`...)
	b = j.UUID(b, c.UserID)
	b = append(b, `,"firstName":`...)
	b = j.String(b, c.FirstName)
	b = append(b, `,"lastName":`...)
	b = j.String(b, c.LastName)
	b = append(b, `,"avatar":`...)
	b = j.StringPtr(b, c.Avatar)
	b = append(b, `,"isExpert":`...)
	b = j.Bool(b, c.IsExpert)
	return append(b, '}')
}

func (s Stats) appendJSON(b []byte) []byte {
	b = append(b, `{"liked":`...)
	b = strconv.AppendInt(b, int64(s.Liked), 10)
	b = append(b, `,"loved":`...)
	b = strconv.AppendInt(b, int64(s.Loved), 10)
	b = append(b, `,"smiled":`...)
	b = strconv.AppendInt(b, int64(s.Smiled), 10)
	b = append(b, `,"disliked":`...)
	b = strconv.AppendInt(b, int64(s.Disliked), 10)
	b = append(b, `,"neutral":`...)
	b = strconv.AppendInt(b, int64(s.Neutral), 10)
	b = append(b, `,"totalCount":`...)
	b = strconv.AppendInt(b, int64(s.TotalCount), 10)
	return append(b, '}')
}
