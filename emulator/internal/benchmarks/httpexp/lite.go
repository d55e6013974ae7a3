package main

import (
	"bytes"
	"net/http"
	"net/url"
	"sync"

	"github.com/valyala/fasthttp"
)

// liteAdaptor serves a net/http Handler from fasthttp without
// fasthttpadaptor's per-request goroutine and pipe: the http.Request, its
// header map, the body reader and the ResponseWriter are pooled and filled
// in place. It supports what the emulator's data plane uses (headers, a
// body, a status, a buffered response); no Hijack, no Flush, no streaming.
// It is the best case of running today's handler on fasthttp.
func liteAdaptor(h http.Handler) fasthttp.RequestHandler {
	pool := sync.Pool{New: func() any {
		return &liteReq{req: http.Request{Header: http.Header{}, URL: &url.URL{}}, w: liteWriter{header: http.Header{}}}
	}}
	return func(ctx *fasthttp.RequestCtx) {
		lr := pool.Get().(*liteReq)
		r := &lr.req
		clear(r.Header)
		for k, v := range ctx.Request.Header.All() {
			r.Header.Add(string(k), string(v))
		}
		r.Method = string(ctx.Method())
		r.URL.Path = string(ctx.Path())
		r.Host = string(ctx.Host())
		r.RequestURI = r.URL.Path
		r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
		r.RemoteAddr = ctx.RemoteAddr().String()
		lr.body.Reset(ctx.PostBody())
		r.Body = &lr.body
		r.ContentLength = int64(ctx.Request.Header.ContentLength())
		w := &lr.w
		clear(w.header)
		w.status = 0
		w.ctx = ctx
		h.ServeHTTP(w, r)
		if w.status == 0 {
			w.WriteHeader(http.StatusOK)
		}
		pool.Put(lr)
	}
}

type liteReq struct {
	req  http.Request
	body liteBody
	w    liteWriter
}

// liteBody is a reusable request body over fasthttp's body bytes.
type liteBody struct{ bytes.Reader }

func (*liteBody) Close() error { return nil }

// liteWriter writes the response into the fasthttp context.
type liteWriter struct {
	header http.Header
	status int
	ctx    *fasthttp.RequestCtx
}

func (w *liteWriter) Header() http.Header { return w.header }

func (w *liteWriter) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	w.ctx.Response.SetStatusCode(status)
	for k, vs := range w.header {
		if k == "Content-Length" {
			continue // fasthttp sets it from the body
		}
		for _, v := range vs {
			w.ctx.Response.Header.Add(k, v)
		}
	}
}

func (w *liteWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.ctx.Response.AppendBody(p)
	return len(p), nil
}
