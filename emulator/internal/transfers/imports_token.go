package transfers

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// importReplay answers an ImportTable whose ClientToken an import of the
// last clientTokenWindow carries, as AWS does (ack-api-quirks
// DDB-IMPORT-017, verified against AWS 2026-10-09):
//   - another TableCreationParameters.TableName is ImportConflictException
//     (the only member the record shows conflicting);
//   - any other change (the record's case: another S3KeyPrefix) is not a
//     conflict: the earlier import is returned, the change ignored;
//   - the identical request, once the import is no longer IN_PROGRESS and
//     its table exists, is ResourceInUseException "Table already exists"
//     (AWS checks the table before the token then); while IN_PROGRESS, or
//     after the table is deleted, it returns the earlier import and
//     creates nothing.
//
// The record leaves other members (InputFormat, the bucket, the key
// schema) untested; they are treated as S3KeyPrefix is. found is false
// when no import has the token.
func importReplay(c service.Call, in *ImportTableInput, req []byte) (d ImportTableDescription, found bool, err error) {
	if in.ClientToken == nil {
		return d, false, nil
	}
	name := str(in.TableCreationParameters.TableName)
	var j *importJob
	set := moves.Of(c)
	set.mu.Lock()
	for _, x := range set.imports {
		if x.desc.ClientToken == *in.ClientToken && c.Now().Sub(x.desc.StartTime.Time()) < clientTokenWindow {
			j, d = x, x.at(c.Now())
			break
		}
	}
	set.mu.Unlock()
	if j == nil {
		return d, false, nil
	}
	if p := j.desc.TableCreationParameters; p == nil || p.TableName != name {
		return d, true, apierr.New(apierr.ErrImportConflict, apierr.MsgImportConflict)
	}
	if j.request == string(req) && d.ImportStatus != "IN_PROGRESS" && hasTable(c, name) {
		return d, true, apierr.New(apierr.ErrResourceInUse, apierr.MsgImportTableExists(name))
	}
	return d, true, nil
}
