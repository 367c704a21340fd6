"""Receive the job-completion callback with FastAPI, and confirm it with the API.

Run it as it is: it serves the receiver on 127.0.0.1, starts an async enrichment whose
callback_url points at it, and prints what arrives. Without LEADENRICH_API_KEY it uses
the bundled fake server (pip install "leadenrich[fake]"); against the real API the
receiver must be reachable from the internet, so set RECEIVER_URL to its public address.

    python examples/webhook_receiver.py
"""

from __future__ import annotations

import os
import queue
import threading

import uvicorn
from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool

from leadenrich import LeadEnrich, LeadEnrichError
from leadenrich.testing import connect
from leadenrich.webhooks import parse_event


def receiver(client: LeadEnrich, inbox: queue.Queue[str]) -> FastAPI:
    app = FastAPI()

    @app.post("/leadenrich")
    async def job_completed(request: Request) -> Response:  # pyright: ignore[reportUnusedFunction]
        try:
            event = parse_event(await request.body())
        except LeadEnrichError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from exc
        # Payloads are not signed yet: believe the API, not the body. The client is the
        # blocking one, so it runs on a worker thread, off the event loop.
        job = await run_in_threadpool(client.jobs.get, event.job_id)
        if job.status == "done" and job.result is not None:
            lead = job.result
            inbox.put(
                f"job {job.job_id} done, confirmed with the API: lead {lead.id} of {lead.input.company}, "
                f"opportunity score {lead.enrichment.opportunity_score}"
            )
        else:
            inbox.put(f"job {job.job_id} ended {job.status}: {job.error}")
        return Response(status_code=204)

    return app


def serve(app: FastAPI) -> tuple[uvicorn.Server, str]:
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        threading.Event().wait(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}/leadenrich"


def main() -> None:
    inbox: queue.Queue[str] = queue.Queue()
    with connect() as client:
        server, local_url = serve(receiver(client, inbox))
        callback_url = os.environ.get("RECEIVER_URL", local_url)
        try:
            job = client.leads.enrich(
                {"company": "Initech", "domain": "initech.com", "name": "Peter Gibbons"},
                callback_url=callback_url,
            )
            print(f"job {job.job_id} queued; waiting for the callback at {callback_url}")
            print(inbox.get(timeout=60))
        finally:
            server.should_exit = True


if __name__ == "__main__":
    main()
