package service

// An item's DynamoDB size (storage.ItemSize) is never more than the
// length of the JSON text it was decoded from, so an item decoded from a
// request body of at most maxItemBytes bytes cannot exceed the item size
// limit, and BatchWriteItem skips measuring its items then. Value by
// value, as the request decoder reads them (emulator/internal/wire):
//
//   - strings (S, SS members, attribute and map entry names): the decoded
//     UTF-8 is never longer than its JSON text: a plain byte is itself, an
//     escape is 2 or 6 bytes of text for at most 1, 3 or (a surrogate
//     pair, 12 bytes of text) 4 bytes, and invalid UTF-8 or a lone
//     surrogate is a SerializationException, never replaced by U+FFFD
//     (wire_text.go), which would grow one byte to three;
//   - B and BS: base64 decodes 4 bytes of text to at most 3;
//   - N and NS members: a length byte, the significant digits in pairs
//     (one more pair when the leading digit starts its pair on an odd
//     power) and, when negative, a terminator: at most d/2 + 2 bytes
//     (+1 negative) for d significant digits, all of which (and the minus)
//     are in the text, with {"N":""} (8 bytes) or a member's quotes
//     around them;
//   - BOOL, NULL: 1 byte against {"BOOL":true} or {"NULL":true};
//   - L and M: 3 bytes plus 1 per element (plus the entry's name in M),
//     against {"L":[]} or {"M":{}} (8 bytes) and per element the element's
//     own text (at least {"S":""}, 8 bytes, more than the 1) and a comma;
//   - a top-level attribute: its name plus its value's size, against the
//     quoted name, a colon and the value's text.
//
// A name given twice keeps one value: smaller still. The JSON text of
// every item of a request is part of its body (after any
// Content-Encoding is undone, which the edge does before the service).
// TestItemSizeBelowJSON and FuzzItemSizeBelowJSON hold the decoder to it.

// itemsFitBody reports whether every item of the request's input is
// within the item size limit without measuring it: the input was decoded
// from a body of at most maxItemBytes bytes.
func (c *call) itemsFitBody() bool { return c.inLen > 0 && c.inLen <= maxItemBytes }
