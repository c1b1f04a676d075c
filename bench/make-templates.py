# Builds src/main/resources/bench/{templates,filler}.jsonl from the test corpus (run from the repo root:
# python3 bench/make-templates.py). The bench workload reads only these copies, never test resources.
import json, sys
seq = {json.loads(l)['name']: json.loads(l) for l in open('src/test/resources/corpus/sequences.jsonl')}
sig = {json.loads(l)['id']: json.loads(l) for l in open('src/test/resources/corpus/signatures.jsonl')}
KEEP = ['agent_type','provider_id','model_id','phase','source','payload','prompt_origin']
out = []
def frames_of(d, gen):
    return [{k: f[k] for k in ['source','phase','payload','prompt_origin'] if k in f} for f in d['frames'] if f['prompt_generation'] == gen]
def first(d, k):
    for f in d['frames']:
        if f.get(k): return f[k]
# setup (generation 0) shapes
out.append({"name": "setup_initialize", "kind": "setup", "agent_type": "codex-acp", "provider_id": "openai", "model_id": "gpt-5.5",
            "outcome": None, "code": None, "frames": frames_of(seq['codex_ts_capacity_typed_session_failure'], 0)})
d = seq['negative_session_load_replays_old_error_text']
out.append({"name": "setup_session_load_replay", "kind": "setup", "agent_type": d['agent_type'], "provider_id": first(d,'provider_id'),
            "model_id": first(d,'model_id'), "outcome": None, "code": None, "frames": frames_of(d, 0)})
TURNS = ['codex_ts_ok_text_turn','claude_ok_read_tool_turn','gemini_ok_plan_and_edit','negative_tool_output_contains_api_error',
         'claude_max_tokens_stop','codex_ts_transient_retry_then_success','claude_user_cancel_during_bash',
         'codex_rust_capacity_jsonrpc_error','codex_ts_capacity_legacy_text_end_turn','claude_529_prompt_error_json_form',
         'gemini_503_overloaded_http_status_as_code','claude_429_with_retry_after','opencode_429_hang_stderr_only',
         'codex_rust_usage_limit_enterprise','claude_credit_balance_too_low','claude_oauth_token_expired',
         'codex_ts_app_server_child_exited','claude_child_process_died_mid_turn','codex_ts_stream_lost_after_apply_patch',
         'codex_ts_context_window_exceeded','claude_500_api_error']
for n in TURNS:
    d = seq[n]; e = d['expected']
    out.append({"name": n, "kind": "turn", "agent_type": d['agent_type'], "provider_id": first(d,'provider_id'), "model_id": first(d,'model_id'),
                "outcome": e['outcome'], "code": e['code'], "frames": frames_of(d, 1)})
# failing turns for codes the sequences lack, built from signatures.jsonl rows as the corpus README says
def from_sig(i, provider, model):
    s = sig[i]; phase = s['phase']; pre = phase in ('auth_check','process_start','session_init')
    fr = []
    if pre:
        fr.append({"source":"lifecycle","phase":phase,"payload":{"event":"prompt_dispatched"},"prompt_origin":"user"})
    else:
        fr.append({"source":"acp_request","phase":"prompt_send","prompt_origin":"user","payload":{"jsonrpc":"2.0","id":1,"method":"session/prompt",
                   "params":{"sessionId":"acp-session-1","prompt":[{"type":"text","text":"Run the tests and fix what fails."}]}}})
    terminal = False
    for x in (s.get('signals') or [s['signal']]):
        src, p = x['source'], x['payload']
        if src == 'acp_error': p = {"jsonrpc":"2.0","id":1,"error":p}
        elif src == 'acp_update': p = {"jsonrpc":"2.0","method":"session/update","params":p}
        elif src == 'acp_response': p = {"jsonrpc":"2.0","id":1,"result":p}
        terminal |= src in ('acp_error','exit') or (src == 'acp_response' and 'stopReason' in x['payload'])
        fr.append({"source":src,"phase":phase,"payload":p})
    if not terminal:
        fr.append({"source":"lifecycle","phase":phase,"payload":{"event":"launch_failed","phase":phase,"message":""}} if pre
                  else {"source":"lifecycle","phase":phase,"payload":{"event":"turn_abandoned"}})
    return {"name": "signature_" + i, "kind": "turn", "agent_type": s['agent_type'] or "claude-acp", "provider_id": provider,
            "model_id": model, "outcome": "failed", "code": s['expected']['code'], "frames": fr}
for i in ['S018','S073','S014','S010','S057','S090','S064']:
    out.append(from_sig(i, 'anthropic' if (sig[i]['agent_type'] or 'claude') .startswith('claude') else 'openai', 'claude-sonnet-4-5' if (sig[i]['agent_type'] or 'claude').startswith('claude') else 'gpt-5.5'))
# the two fallbacks: nothing matches (invented shapes, no secrets)
out.append({"name": "invented_unmatched_post_start", "kind": "turn", "agent_type": "claude-acp", "provider_id": "anthropic", "model_id": "claude-sonnet-4-5",
            "outcome": "failed", "code": "agent_runtime_error", "frames": [
    {"source":"acp_request","phase":"prompt_send","prompt_origin":"user","payload":{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"acp-session-3","prompt":[{"type":"text","text":"Summarize the diff."}]}}},
    {"source":"acp_error","phase":"streaming","payload":{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error: unexpected state in renderer"}}}]})
out.append({"name": "invented_unmatched_launch", "kind": "turn", "agent_type": "gemini-cli", "provider_id": "google", "model_id": "gemini-2.5-pro",
            "outcome": "failed", "code": "unknown_provider_error", "frames": [
    {"source":"lifecycle","phase":"process_start","prompt_origin":"user","payload":{"event":"prompt_dispatched"}},
    {"source":"exit","phase":"process_start","payload":{"code":3,"signal":None}}]})
with open('src/main/resources/bench/templates.jsonl','w') as f:
    for o in out: f.write(json.dumps(o, separators=(',',':')) + '\n')
# filler: session/update payloads of the ok turns, split into effect (output/tool) and quiet updates
fill = []; seen = set()
for n in ['codex_ts_ok_text_turn','claude_ok_read_tool_turn','gemini_ok_plan_and_edit','codex_ts_stream_lost_after_apply_patch']:
    for f in seq[n]['frames']:
        if f['source'] != 'acp_update': continue
        u = f['payload']['params']['update']; k = u.get('sessionUpdate')
        key = json.dumps(u, sort_keys=True)
        if key in seen or k == 'session_info_update': continue
        seen.add(key)
        fill.append({"effect": k in ('agent_message_chunk','agent_thought_chunk','tool_call','tool_call_update'), "phase": f['phase'], "payload": f['payload']})
for u in [{"sessionUpdate":"plan","entries":[{"content":"Read the failing test","priority":"high","status":"in_progress"},{"content":"Fix the parser","priority":"medium","status":"pending"}]},
          {"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review the current changes"}]},
          {"sessionUpdate":"current_mode_update","currentModeId":"default"}]:
    fill.append({"effect": False, "phase": "streaming", "payload": {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"acp-session-1","update":u}}})
with open('src/main/resources/bench/filler.jsonl','w') as f:
    for o in fill: f.write(json.dumps(o, separators=(',',':')) + '\n')
print(len(out), 'templates', len(fill), 'filler', sum(1 for x in fill if not x['effect']), 'quiet')
