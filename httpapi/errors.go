package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"agora/internal/plumbing/apperr"
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
	// 507 Insufficient Storage (RFC 4918): the server cannot keep what
	// the request asked it to.
	apperr.InsufficientStorage: fiber.StatusInsufficientStorage,
}

// fiberCodes names the errors Fiber and fasthttp raise, each with a code of
// the catalogue (the Error schema of the OpenAPI document). The spec's own
// catalogue names no transport failures, so those without a code of their
// own take the nearest documented one:
//
//   - 431 (the headers are over the read buffer): requestTooLarge, the
//     code of a request too large to be read, here its headers;
//   - 408 (the request did not arrive within the read timeout): badRequest,
//     the code of a request the server could not read, which an
//     incomplete one is;
//   - 501 (a method the server does not know, answered by knownMethods
//     before Fiber): methodNotAllowed, as no path allows it.
//
// Any other status Fiber raises is badRequest (4xx) or internalError (5xx).
var fiberCodes = map[int]string{
	fiber.StatusNotFound:                    "notFound",
	fiber.StatusMethodNotAllowed:            "methodNotAllowed",
	fiber.StatusNotImplemented:              "methodNotAllowed",
	fiber.StatusRequestEntityTooLarge:       "requestTooLarge",
	fiber.StatusRequestHeaderFieldsTooLarge: "requestTooLarge",
	fiber.StatusBadRequest:                  "badRequest",
	fiber.StatusRequestTimeout:              "badRequest",
}

// transportError is the body of a status raised by Fiber or fasthttp. Its
// message is the status's text: fasthttp's own messages quote the bytes it
// could not parse, which an error body must not echo.
func transportError(status int) ErrorBody {
	code, ok := fiberCodes[status]
	switch {
	case ok:
	case status >= 500:
		code = "internalError"
	default:
		code = "badRequest"
	}
	return ErrorBody{Code: code, Message: http.StatusText(status)}
}

// handleError is the only place where error kinds become statuses.
func (s *server) handleError(c fiber.Ctx, err error) error {
	status, body := fiber.StatusInternalServerError, ErrorBody{Code: "internalError", Message: "something went wrong"}
	if apperr.DiskFull(err) {
		// Whatever a use case made of it (a body it could not stage, a
		// statement that failed), a full disk is the server's failure.
		err = apperr.ErrStorageFull.Wrap(err)
	}
	var fe *fiber.Error
	if ae, ok := apperr.As(err); ok {
		status = statusOf[ae.Kind]
		body = ErrorBody{Code: ae.Code, Message: ae.Message, Details: ae.Details}
		if ae.RetryAfter > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ae.RetryAfter))
		}
		if ae.Kind == apperr.Internal || ae.Kind == apperr.InsufficientStorage {
			s.Log.Error("request failed", "requestId", requestID(c), "err", err)
		}
	} else if errors.As(err, &fe) {
		status, body = fe.Code, transportError(fe.Code)
	} else {
		s.Log.Error("request failed", "requestId", requestID(c), "method", c.Method(), "path", c.Path(), "err", err)
	}
	return c.Status(status).JSON(body)
}
