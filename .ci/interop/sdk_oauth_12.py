#!/usr/bin/env python3
"""A real OAuth client against exercise 12's server: the official SDK's
OAuthClientProvider (mcp 2.3.0) runs the whole authorization flow against
the auth-gate server, through an authorization server built from the SDK's
own auth server routes (`create_auth_routes`) plus an RFC 7662
introspection route, with pre-registered client credentials (the SDK's
Client ID Metadata Document support insists on HTTPS URLs, and dynamic
registration is deprecated in 2026-07-28).

Usage: sdk_oauth_12.py SERVER_BINARY

It starts the authorization server (and the upstream notes API the
exercise's server calls) on a loopback port, the server on another, and
drives the server with the SDK client in auto mode:

1. The first request gets 401; the SDK reads `resource_metadata` from the
   challenge, fetches the Protected Resource Metadata, the authorization
   server's metadata, opens /authorize with PKCE S256, `resource` and the
   challenged scope (notes:read), exchanges the code at /token with the
   verifier and `resource`, and retries with the token.
2. tools/list and list_notes are served; the server introspected the token
   with its own client credentials and called the notes API with its own
   credential, never the client's token.
3. add_note needs notes:write: 403 insufficient_scope, the SDK steps up
   (a second authorization with the union of the scopes) and retries.

Prints one line per check (`ok   …` or `FAIL …`); exits 1 when any failed.
"""

import base64
import secrets
import socket
import subprocess
import sys
import threading
import time
import traceback
from urllib.parse import parse_qs, urlparse

import anyio
import httpx2
import uvicorn
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.provider import AccessToken, AuthorizationCode, AuthorizationParams, construct_redirect_uri
from mcp.server.auth.routes import build_metadata, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from sdk_driver import Checks, dump, texts

# The resource server's credentials at the authorization server and upstream.
RS_ID, RS_SECRET = "notes-mcp", "introspect-ci-7e1"
UPSTREAM_TOKEN = "upstream-ci-credential"
# The MCP client, registered in advance.
APP_ID, APP_SECRET = "notes-app", "app-secret-ci"
REDIRECT = "http://localhost:3030/callback"
NOTE = "water the plants"
MODERN = "2026-07-28"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Provider:
    """An OAuthAuthorizationServerProvider that approves every request of the
    one pre-registered client at once (no user to ask), and keeps its tokens
    for the introspection route."""

    def __init__(self, issuer):
        self.issuer = issuer
        self.client = OAuthClientInformationFull(
            client_id=APP_ID,
            client_secret=APP_SECRET,
            redirect_uris=[REDIRECT],
            token_endpoint_auth_method="client_secret_post",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            scope="notes:read notes:write",
        )
        self.codes = {}
        self.tokens = {}
        self.authorizations = []

    async def get_client(self, client_id):
        return self.client if client_id == APP_ID else None

    async def register_client(self, client_info):
        raise NotImplementedError("clients are registered in advance")

    async def authorize(self, client, params: AuthorizationParams):
        self.authorizations.append(params)
        code = secrets.token_urlsafe(16)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject="ada",
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=self.issuer)

    async def load_authorization_code(self, client, authorization_code):
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(self, client, authorization_code):
        self.codes.pop(authorization_code.code, None)
        token = "at-" + secrets.token_urlsafe(24)
        self.tokens[token] = AccessToken(
            token=token,
            client_id=client.client_id,
            scopes=authorization_code.scopes,
            expires_at=int(time.time()) + 3600,
            resource=authorization_code.resource,
            subject=authorization_code.subject,
        )
        return OAuthToken(access_token=token, token_type="Bearer", expires_in=3600, scope=" ".join(authorization_code.scopes))

    async def load_refresh_token(self, client, refresh_token):
        return None

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        raise NotImplementedError

    async def load_access_token(self, token):
        return self.tokens.get(token)

    async def revoke_token(self, token):
        self.tokens.pop(getattr(token, "token", token), None)


class Recorder:
    """ASGI middleware keeping (method, path, query, headers, body) of every request."""

    def __init__(self, app, log):
        self.app, self.log = app, log

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        chunks = []

        async def recording():
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
            return message

        await self.app(scope, recording, send)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self.log.append((scope["method"], scope["path"], scope["query_string"].decode(), headers, b"".join(chunks).decode()))


def authorization_server(port, provider, log):
    """The SDK's auth server routes, with introspection_endpoint in the
    metadata, the introspection route and the upstream notes API."""
    issuer = AnyHttpUrl(provider.issuer)
    options = ClientRegistrationOptions(enabled=False)
    metadata = build_metadata(issuer, None, options, RevocationOptions())
    metadata.introspection_endpoint = AnyHttpUrl(provider.issuer.rstrip("/") + "/introspect")
    metadata_path = "/.well-known/oauth-authorization-server"
    routes = [r for r in create_auth_routes(provider, issuer, client_registration_options=options) if r.path != metadata_path]
    basic = "Basic " + base64.b64encode(f"{RS_ID}:{RS_SECRET}".encode()).decode()

    async def introspect(request: Request):
        # RFC 7662 § 2.1: the protected resource authenticates.
        if request.headers.get("authorization") != basic:
            return JSONResponse({"error": "invalid_client"}, status_code=401, headers={"WWW-Authenticate": "Basic"})
        token = (await request.form()).get("token")
        found = provider.tokens.get(token)
        if found is None or (found.expires_at and found.expires_at < time.time()):
            return JSONResponse({"active": False})
        claims = {"active": True, "client_id": found.client_id, "scope": " ".join(found.scopes), "exp": found.expires_at, "sub": found.subject, "iss": provider.issuer, "token_type": "Bearer"}
        if found.resource:
            claims["aud"] = found.resource
        return JSONResponse(claims)

    async def notes(request: Request):
        if request.headers.get("authorization") != f"Bearer {UPSTREAM_TOKEN}":
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        return JSONResponse({"notes": [NOTE]} if request.method == "GET" else {"saved": True})

    routes += [
        Route(metadata_path, endpoint=MetadataHandler(metadata).handle, methods=["GET"]),
        Route("/introspect", endpoint=introspect, methods=["POST"]),
        Route("/upstream/notes", endpoint=notes, methods=["GET", "POST"]),
    ]
    app = Recorder(Starlette(routes=routes), log)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    return server


class Storage:
    """Token storage holding the pre-registered client."""

    def __init__(self, client):
        self.tokens, self.client = None, client

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


def wait_for_port(port, process):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


async def drive(url, provider, seen, checks):
    redirects = []

    async def redirect_handler(authorization_url):
        # The user agent: the authorization server approves at once and redirects.
        async with httpx2.AsyncClient() as browser:
            answer = await browser.get(authorization_url, follow_redirects=False)
        redirects.append((authorization_url, answer.status_code, answer.headers.get("location", "")))

    async def callback_handler():
        query = parse_qs(urlparse(redirects[-1][2]).query)
        first = lambda name: (query.get(name) or [None])[0]  # noqa: E731
        return AuthorizationCodeResult(code=first("code") or "", state=first("state"), iss=first("iss"))

    registered = OAuthClientInformationFull(
        client_id=APP_ID,
        client_secret=APP_SECRET,
        redirect_uris=[REDIRECT],
        token_endpoint_auth_method="client_secret_post",
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
    auth = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(redirect_uris=[REDIRECT], grant_types=["authorization_code", "refresh_token"], response_types=["code"], token_endpoint_auth_method="client_secret_post"),
        storage=Storage(registered),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )

    async def on_response(response):
        seen.append((response.request.method, str(response.request.url), response.status_code, response.headers.get("www-authenticate"), response.request.headers.get("authorization")))

    http = httpx2.AsyncClient(auth=auth, event_hooks={"response": [on_response]})
    async with http, Client(streamable_http_client(url, http_client=http), mode="auto", read_timeout_seconds=30) as client:
        checks.expect(f"negotiated {MODERN}", client.protocol_version == MODERN, client.protocol_version)
        tools = await client.list_tools(cache_mode="bypass")
        checks.expect("tools/list lists list_notes and add_note", sorted(t.name for t in tools.tools) == ["add_note", "list_notes"], dump(tools))
        result = await client.call_tool("list_notes", {})
        checks.expect("list_notes returns the upstream note", not result.is_error and NOTE in " ".join(texts(result)), dump(result))
        granted_before = len(provider.authorizations)
        result = await client.call_tool("add_note", {"text": "buy milk"})
        checks.expect("add_note is served after the step-up", not result.is_error and "saved" in " ".join(texts(result)), dump(result))
        checks.expect("the step-up was a second authorization", len(provider.authorizations) == granted_before + 1 == 2, len(provider.authorizations))
    return redirects


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sdk_oauth_12.py SERVER_BINARY")
    checks = Checks()
    as_port, mcp_port = free_port(), free_port()
    # The issuer exactly as the SDK's metadata renders it (pydantic's
    # AnyHttpUrl adds the root path's "/"); the PRM must name that string,
    # or the client rejects the metadata (RFC 8414 § 3.3).
    issuer = f"http://127.0.0.1:{as_port}/"
    resource = f"http://127.0.0.1:{mcp_port}/mcp"
    metadata_url = f"http://127.0.0.1:{mcp_port}/.well-known/oauth-protected-resource/mcp"
    provider, log, seen = Provider(issuer), [], []
    authorization_server(as_port, provider, log)
    argv = [sys.argv[1], "--port", str(mcp_port), "--resource", resource, "--authorization-server", issuer, "--client-id", RS_ID, "--client-secret", RS_SECRET, "--upstream", f"{issuer}upstream", "--upstream-token", UPSTREAM_TOKEN]
    server = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    try:
        checks.expect("the server listens", wait_for_port(mcp_port, server), "nothing listened")
        anyio.run(drive, resource, provider, seen, checks)
    except BaseException as e:  # a crash is a failed run, reported plainly
        checks.expect("the flow ran to the end", False, f"{type(e).__name__}: {e}")
        traceback.print_exc(file=sys.stderr)
    finally:
        server.terminate()
        try:
            _, err = server.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
        sys.stderr.write(err or "")

    # What went over the wire, client side (seen) and at the authorization server (log).
    first = next((s for s in seen if s[0] == "POST" and s[1] == resource), None)
    checks.expect("the first request got 401 naming the metadata", first is not None and first[2] == 401 and f'resource_metadata="{metadata_url}"' in (first[3] or ""), first)
    checks.expect("the SDK fetched the Protected Resource Metadata", any(s[1] == metadata_url and s[2] == 200 for s in seen), [s[:3] for s in seen])
    authorize = [parse_qs(q) for m, p, q, h, b in log if p == "/authorize"]
    checks.expect("two authorization requests (the first, the step-up)", len(authorize) == 2, len(authorize))
    pkce = all(a.get("code_challenge_method") == ["S256"] and a.get("code_challenge") for a in authorize)
    checks.expect("each with PKCE S256", bool(authorize) and pkce, authorize)
    checks.expect("each with resource = the canonical URI", bool(authorize) and all(a.get("resource") == [resource] for a in authorize), authorize)
    scopes = [set((a.get("scope") or [""])[0].split()) for a in authorize]
    checks.expect("scopes: notes:read, then the union with notes:write", scopes == [{"notes:read"}, {"notes:read", "notes:write"}], scopes)
    tokens = [parse_qs(b) for m, p, q, h, b in log if p == "/token"]
    checks.expect("each token request carries the verifier and resource", len(tokens) == 2 and all(t.get("code_verifier") and t.get("resource") == [resource] for t in tokens), tokens)
    step_up = [s for s in seen if s[1] == resource and s[2] == 403]
    checks.expect("add_note with a notes:read token got 403 insufficient_scope", any('error="insufficient_scope"' in (s[3] or "") and "notes:write" in (s[3] or "") for s in step_up), step_up)
    issued = set(provider.tokens)
    introspected = [parse_qs(b).get("token", [""])[0] for m, p, q, h, b in log if p == "/introspect"]
    checks.expect("the server introspected the issued tokens", bool(introspected) and set(introspected) <= issued | {""} and set(introspected) & issued, introspected)
    upstream = [h.get("authorization") for m, p, q, h, b in log if p == "/upstream/notes"]
    checks.expect("the notes API saw only the server's own credential", len(upstream) == 2 and all(a == f"Bearer {UPSTREAM_TOKEN}" for a in upstream), upstream)
    leaked = [s[1] for s in seen if "access_token" in urlparse(s[1]).query]
    checks.expect("no token in a query string", not leaked, leaked)
    print(f"{checks.passed} checks passed, {checks.failed} failed")
    sys.exit(1 if checks.failed or checks.passed == 0 else 0)


if __name__ == "__main__":
    main()
