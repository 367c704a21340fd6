"""Many threads and asyncio tasks on one server lose no job, no lead and no charge."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

import httpx

from tests.helpers import MakeServer, api_client, lead, wait_job

THREADS = 4
TASKS = 12
PER_WORKER = 6


def test_threads_and_tasks_hammering_one_server(make_server: MakeServer) -> None:
    server = make_server(
        max_concurrent_enrichments=200,
        sync_per_minute=10_000,
        async_per_minute=10_000,
        enrichment_seconds=(1.0, 4.0),
        mobile_lookup_seconds=(1.0, 2.0),
    )
    keys = [server.add_key(monthly_leads=None) for _ in range(THREADS)]
    job_ids: list[str] = []
    sync_ids: list[str] = []
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def thread_worker(key: str, worker: int) -> None:
        with api_client(server, key) as http:
            for n in range(PER_WORKER):
                body = {"lead": lead(f"t{worker}-{n}.com", email=f"p{n}@t{worker}.com")}
                created = http.post("/leads/enrich", json=body)
                synced = http.post(
                    "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(f"s{worker}-{n}.com")}
                )
                found = http.post(
                    "/email/find", json={"first_name": "A", "last_name": f"W{worker}{n}", "domain": "x.com"}
                )
                looked = http.post(
                    "/mobile/find", json={"first_name": "A", "last_name": f"W{worker}{n}", "domain": "x.com"}
                )
                with lock:
                    statuses.update(r.status_code for r in (created, synced, found, looked))
                    job_ids.append(created.json()["job_id"])
                    sync_ids.append(synced.json()["id"])

    async def task_worker(http: httpx.AsyncClient, worker: int) -> None:
        for n in range(PER_WORKER):
            created = await http.post("/leads/enrich", json={"lead": lead(f"a{worker}-{n}.com")})
            with lock:
                statuses[created.status_code] += 1
                job_ids.append(created.json()["job_id"])

    async def run_tasks() -> None:
        headers = {"Authorization": f"Bearer {server.api_key}"}
        async with httpx.AsyncClient(
            base_url=server.api_url, headers=headers, trust_env=False, verify=False
        ) as http:
            await asyncio.gather(*(task_worker(http, w) for w in range(TASKS)))

    threads = [threading.Thread(target=thread_worker, args=(key, w)) for w, key in enumerate(keys)]
    threads.append(threading.Thread(target=asyncio.run, args=(run_tasks(),)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    expected_jobs = THREADS * PER_WORKER + TASKS * PER_WORKER
    assert statuses == {202: expected_jobs + THREADS * PER_WORKER, 200: 2 * THREADS * PER_WORKER}
    assert len(set(job_ids)) == expected_jobs
    for job_id in job_ids:
        assert wait_job(server, job_id).status == "done"
    assert server.state.wait_until(lambda: all(lookup.is_terminal for lookup in server.state.lookups()))

    state = server.state
    assert {job.job_id for job in state.jobs()} == set(job_ids)
    leads = state.leads()
    assert len(leads) == len({lead_out.id for lead_out in leads}) == expected_jobs + len(sync_ids)
    assert set(sync_ids) <= {lead_out.id for lead_out in leads}
    assert state.charged("enrichment") == expected_jobs + len(sync_ids)
    assert state.charged("email") == THREADS * PER_WORKER
    assert state.charged("mobile") == THREADS * PER_WORKER
    assert state.in_flight == 0
    for key in keys:
        with api_client(server, key) as http:
            usage = http.get("/usage").json()
        assert usage["monthly_leads"]["used"] == 3 * PER_WORKER
        assert usage["mobile_credits"]["used"] == PER_WORKER
        assert usage["api_calls_this_month"]["this_key"] == 4 * PER_WORKER + 1
    assert state.charged("enrichment", key=server.api_key) == TASKS * PER_WORKER


def test_the_ceiling_holds_under_a_burst(make_server: MakeServer) -> None:
    server = make_server()  # 100-200 ms runs: the burst arrives well before the first ends
    accepted: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(20)

    def burst(n: int) -> None:
        key = server.add_key()
        with api_client(server, key) as http:
            barrier.wait()
            response = http.post(
                "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(f"burst{n}.com")}
            )
        with lock:
            accepted.append(response.status_code)

    threads = [threading.Thread(target=burst, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(accepted) == 20
    assert set(accepted) <= {200, 429}
    assert 5 <= accepted.count(200) < 20
    assert server.state.peak_in_flight == 5
    assert server.state.charged("enrichment") == accepted.count(200)
    assert len(server.state.leads()) == accepted.count(200)
