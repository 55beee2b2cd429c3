package s3store

import (
	"errors"
	"fmt"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"kudos"
)

// wrapErr turns a missing object into kudos.ENotFound and leaves every other
// failure internal, with the operation and key for the log. nil stays nil.
func wrapErr(op, key string, err error) error {
	if err == nil {
		return nil
	} else if isNotFound(err) && !isCode(err, "NoSuchBucket") {
		return kudos.Errorf(kudos.ENotFound, "File not found")
	}
	return fmt.Errorf("s3store: %s %q: %w", op, key, err)
}

// isNotFound reports whether S3 answered 404: GetObject says NoSuchKey, while
// HEAD answers carry no body, so the SDK only knows "NotFound" and the status.
func isNotFound(err error) bool {
	if isCode(err, "NoSuchKey", "NotFound", "NoSuchBucket") {
		return true
	}
	var re *awshttp.ResponseError
	return errors.As(err, &re) && re.HTTPStatusCode() == http.StatusNotFound
}

// isAlreadyOwned reports a CreateBucket lost to a concurrent creator.
func isAlreadyOwned(err error) bool {
	return isCode(err, "BucketAlreadyOwnedByYou", "BucketAlreadyExists")
}

func isCode(err error, codes ...string) bool {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	for _, c := range codes {
		if apiErr.ErrorCode() == c {
			return true
		}
	}
	return false
}
