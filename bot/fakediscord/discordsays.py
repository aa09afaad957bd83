"""Discord's Activity proxy: the app's Activity is served from its own origin (Discord:
``https://<application id>.discordsays.com``; here ``http://<id>.discordsays.localhost:3333``),
every request going to the target of the app's URL mapping with the longest matching prefix
(``/.proxy/...`` as well, the older form the SDK's ``patchUrlMappings`` writes). Responses
stream through (server-sent events work) with the proxy's Content-Security-Policy added to the
app's own: Discord's docs ("Activities: Networking") say only the app's origin and its mappings
may be reached — anything else is ``blocked:csp`` — and inline scripts are refused.

The fake's policy (Discord's exact header is not published): ``'self'`` for everything, plus
``'unsafe-eval'`` and ``blob:`` for scripts, inline styles, ``data:``/``blob:`` images, fonts
and media, no objects, and a ``report-uri`` on the fake client's origin so tests can read the
violations. Not modelled: WebSockets through the proxy, Discord's request headers to the
target, TLS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import ClientError, ClientSession, ClientTimeout, web

from bot.fakediscord.restkit import fake_of

if TYPE_CHECKING:
    from bot.fakediscord.core import FakeCore

PROXY_PREFIX = "/.proxy"
HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
    "transfer-encoding", "upgrade", "host", "content-length",
})


def content_security_policy(report_uri: str) -> str:
    return "; ".join((
        "default-src 'self'",
        "script-src 'self' 'unsafe-eval' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "media-src 'self' data: blob:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "frame-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        f"report-uri {report_uri}",
    ))


def _not_found(text: str) -> web.Response:
    return web.Response(status=404, text=text)


async def proxy(request: web.Request) -> web.StreamResponse:
    fake = fake_of(request)
    application = request.host.split(".", 1)[0]
    if application != str(fake.application.id) or not fake.activities.enabled:
        return _not_found("no Activity here")
    path = request.path
    if path == PROXY_PREFIX or path.startswith(PROXY_PREFIX + "/"):
        path = path[len(PROXY_PREFIX):] or "/"
    target = fake.activities.map_path(path)
    if target is None:
        return _not_found("no URL mapping for this path")
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return web.Response(status=501, text="the fake's proxy does not carry WebSockets")
    url = target + (f"?{request.query_string}" if request.query_string else "")
    headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
    body = await request.read()
    session = _session(fake)
    try:
        upstream_context = session.request(request.method, url, headers=headers,
                                           data=body or None, allow_redirects=False)
        async with upstream_context as upstream:
            response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
            for name, value in upstream.headers.items():
                if name.lower() not in HOP_BY_HOP:
                    response.headers.add(name, value)
            response.headers.add("Content-Security-Policy",
                                 content_security_policy(fake.csp_report_uri))
            await response.prepare(request)
            try:
                async for chunk in upstream.content.iter_any():
                    await response.write(chunk)
                await response.write_eof()
            except (ConnectionResetError, ClientError):
                # the browser or the app went away mid-answer (a page closed during its event
                # stream, noticed at the next write): nobody is left to tell
                pass
            return response
    except ClientError as exc:
        return web.Response(status=502, text=f"the mapped target did not answer: {exc}")


def _session(fake: FakeCore) -> ClientSession:
    if fake.proxy_session is None or fake.proxy_session.closed:
        # no total timeout: an event stream through the proxy lasts as long as the page
        fake.proxy_session = ClientSession(auto_decompress=False,
                                           timeout=ClientTimeout(total=None))
    return fake.proxy_session


def proxy_app() -> web.Application:
    app = web.Application()
    app.router.add_route("*", "/{path:.*}", proxy)
    return app
