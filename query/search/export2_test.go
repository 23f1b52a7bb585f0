package search

import (
	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
)

func PeerSQL(viewer uuid.UUID, communities []uuid.UUID) (string, []any, string, []any) {
	where := peerWhere(viewer, communities, nil)
	lm := lastMessageWith(viewer)
	a, b := SELECT(pu.ID, pu.FirstName, pu.LastName, pu.Avatar, pu.Company, pu.JobTitle, pu.InterestTags, po.OnlineOn, po.Status, lm).
		FROM(peerFrom).WHERE(where).ORDER_BY(peerOrder(nil, lm)...).LIMIT(25).OFFSET(0).Sql()
	c, d := SELECT(COUNT(STAR)).FROM(peerFrom).WHERE(where).Sql()
	return a, b, c, d
}
