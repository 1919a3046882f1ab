"""Drives the two generated clients against a running `doctrust serve`.

Each answer is parsed by the generated client into its models, turned back
into plain JSON by the same client, and compared with what the CLI prints for
the same file (id, receipt and timing aside). A client that types an upload as
text, or a model that refuses a real report, fails here.

Usage: check.py BASE_URL DOCTRUST_BINARY FIXTURE ORIGINAL
(the generated packages doctrust_opc and doctrust_oag on PYTHONPATH).
"""

import json
import subprocess
import sys

BASE, BIN, FIXTURE, ORIGINAL = sys.argv[1:5]
VOLATILE = {"id", "receipt", "timing"}
failures = []
run = []


def cli(*args):
    out = subprocess.run([BIN, *args], check=True, capture_output=True).stdout
    return json.loads(out)


def plain(value):
    """JSON as both clients give it back: unset and null members dropped
    (openapi-generator's to_dict leaves out None), lists and objects kept."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def stable(report):
    return plain({k: v for k, v in report.items() if k not in VOLATILE})


def same(label, got, want):
    run.append(label)
    if got == want:
        print(f"ok   {label}")
        return
    failures.append(label)
    print(f"FAIL {label}")
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            print(f"  {k}: client {json.dumps(got.get(k))[:300]}")
            print(f"  {k}: cli    {json.dumps(want.get(k))[:300]}")


def envelope(report):
    """The body of /receipt/verify: the report as printed and its receipt."""
    return {"report": {k: v for k, v in report.items() if k != "receipt"}, "receipt": report["receipt"]}


def status_ok(label, resp):
    if resp.status_code != 200 or resp.parsed is None:
        run.append(label)
        failures.append(label)
        print(f"FAIL {label}: status {resp.status_code} {resp.content[:300]!r}")
        return False
    return True


fixture = open(FIXTURE, "rb").read()
original = open(ORIGINAL, "rb").read()
want_inspect = cli("inspect", FIXTURE)
want_metadata = cli("metadata", FIXTURE)
want_compare = cli("compare", ORIGINAL, FIXTURE)

# --- openapi-python-client -------------------------------------------------
from doctrust_opc import AuthenticatedClient, Client
from doctrust_opc.api.default import compare, inspect, metadata, signup, verify_receipt
from doctrust_opc.models import (
    CompareBody,
    InspectFilesBody,
    MetadataFilesBody,
    SignupBody,
    VerifyReceiptBody,
)
from doctrust_opc.types import File

# Inspect and metadata take anonymous callers; compare and receipt verify
# need a key, which sign-up returns.
anon = Client(base_url=BASE, raise_on_unexpected_status=False)
r = signup.sync_detailed(client=anon, body=SignupBody(email="clients@example.com", password="generated-clients-28"))
if r.status_code != 201 or r.parsed is None:
    sys.exit(f"sign-up failed: {r.status_code} {r.content[:300]!r}")
key = r.parsed.api_key.plaintext
opc = AuthenticatedClient(base_url=BASE, token=key, raise_on_unexpected_status=False)

r = inspect.sync_detailed(client=opc, body=InspectFilesBody(file=File(payload=fixture, file_name="f.pdf")))
if status_ok("openapi-python-client inspect multipart", r):
    same("openapi-python-client inspect multipart", stable(r.parsed.to_dict()), stable(want_inspect))
r = inspect.sync_detailed(client=opc, body=File(payload=fixture))
if status_ok("openapi-python-client inspect raw", r):
    same("openapi-python-client inspect raw", stable(r.parsed.to_dict()), stable(want_inspect))
r = metadata.sync_detailed(client=opc, body=MetadataFilesBody(file=File(payload=fixture, file_name="f.pdf")))
if status_ok("openapi-python-client metadata", r):
    same("openapi-python-client metadata", plain(r.parsed.to_dict()), plain(want_metadata))
r = compare.sync_detailed(client=opc, body=CompareBody(
    original=File(payload=original, file_name="a.pdf"), candidate=File(payload=fixture, file_name="b.pdf")))
if status_ok("openapi-python-client compare", r):
    same("openapi-python-client compare", plain(r.parsed.to_dict()), plain(want_compare))
# The receipt of the CLI's report verifies through the API: one secret.
r = verify_receipt.sync_detailed(client=opc, body=VerifyReceiptBody.from_dict(envelope(want_inspect)))
if status_ok("openapi-python-client receipt verify (CLI's report)", r):
    same("openapi-python-client receipt verify (CLI's report)", {k: v for k, v in r.parsed.to_dict().items()}, {"valid": True})

# --- openapi-generator (python) --------------------------------------------
import doctrust_oag
from doctrust_oag.api.default_api import DefaultApi

api = DefaultApi(doctrust_oag.ApiClient(doctrust_oag.Configuration(host=BASE, access_token=key)))

rep = api.inspect(file=("f.pdf", fixture))
same("openapi-generator inspect multipart", stable(rep.to_dict()), stable(want_inspect))
# The generated method sends the operation's first media type (multipart);
# a raw body goes through the same client's documented low-level calls and
# its models.
params = api.api_client.param_serialize(
    method="POST", resource_path="/api/v1/inspect",
    header_params={"Content-Type": "application/pdf", "Accept": "application/json"}, body=fixture)
raw = api.api_client.call_api(*params)
raw.read()
rep_raw = api.api_client.response_deserialize(raw, {"200": "InspectionReport"}).data
same("openapi-generator inspect raw", stable(rep_raw.to_dict()), stable(want_inspect))
md = api.metadata(file=("f.pdf", fixture))
same("openapi-generator metadata", plain(md.to_dict()), plain(want_metadata))
cmp = api.compare(original=("a.pdf", original), candidate=("b.pdf", fixture))
same("openapi-generator compare", plain(cmp.to_dict()), plain(want_compare))
v = api.verify_receipt(doctrust_oag.VerifyReceiptRequest.from_dict(envelope(rep.to_dict())))
same("openapi-generator receipt verify (its own report)", v.to_dict(), {"valid": True})
v = api.verify_receipt(doctrust_oag.VerifyReceiptRequest.from_dict(envelope(want_inspect)))
same("openapi-generator receipt verify (CLI's report)", v.to_dict(), {"valid": True})

print(f"{len(run) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
