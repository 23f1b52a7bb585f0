package httpapi

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"agora/internal/apperr"
)

// ErrorBody is the one error body of the API.
type ErrorBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

var statusOf = map[apperr.Kind]int{
	apperr.Internal:      fiber.StatusInternalServerError,
	apperr.BadInput:      fiber.StatusBadRequest,
	apperr.Unauthorized:  fiber.StatusUnauthorized,
	apperr.Forbidden:     fiber.StatusForbidden,
	apperr.NotFound:      fiber.StatusNotFound,
	apperr.Conflict:      fiber.StatusConflict,
	apperr.Gone:          fiber.StatusGone,
	apperr.TooMany:       fiber.StatusTooManyRequests,
	apperr.TooLarge:      fiber.StatusRequestEntityTooLarge,
	apperr.Unprocessable: fiber.StatusUnprocessableEntity,
}

// fiberCodes names the errors Fiber itself raises.
var fiberCodes = map[int]string{
	fiber.StatusNotFound:              "notFound",
	fiber.StatusMethodNotAllowed:      "methodNotAllowed",
	fiber.StatusRequestEntityTooLarge: "requestTooLarge",
	fiber.StatusBadRequest:            "badRequest",
	fiber.StatusRequestTimeout:        "requestTimeout",
}

// handleError is the only place where error kinds become statuses.
func (s *server) handleError(c fiber.Ctx, err error) error {
	status, body := fiber.StatusInternalServerError, ErrorBody{Code: "internalError", Message: "something went wrong"}
	var fe *fiber.Error
	if ae, ok := apperr.As(err); ok {
		status = statusOf[ae.Kind]
		body = ErrorBody{Code: ae.Code, Message: ae.Message, Details: ae.Details}
		if ae.RetryAfter > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
		}
		if ae.Kind == apperr.Internal {
			s.Log.Error("request failed", "requestId", requestID(c), "err", err)
		}
	} else if errors.As(err, &fe) {
		status = fe.Code
		code, ok := fiberCodes[fe.Code]
		if !ok {
			code = "httpError"
		}
		body = ErrorBody{Code: code, Message: fe.Message}
	} else {
		s.Log.Error("request failed", "requestId", requestID(c), "method", c.Method(), "path", c.Path(), "err", err)
	}
	return c.Status(status).JSON(body)
}
