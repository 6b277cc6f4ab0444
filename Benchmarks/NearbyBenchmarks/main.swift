// NearbyBenchmarks: nearby against real peers in the same run (network namespaces,
// ../shared/nearby/lab.sh; needs root). Each section prints every round and the figures the issue sets:
//   throughput  against iperf3 on a 1 Gbit/s tbf link: ≥ 110 MB/s, ≥ 92 % of iperf3, receiver
//               peak memory ≤ 64 MiB; then one-byte sends (ask → accepted ≤ 200 ms)
//   wormhole    against magic-wormhole's direct transit on the unlimited veth: ≥ 2×
//   discovery   `nearby list` seeing a receiver started at the same instant: ≤ 1 s p90; ≥ 99 %
//               within 5 s with 20 % loss; `--to HOST:PORT` with multicast DNS dropped
//   resume      random kill -9s and link cuts during 256 MiB sends: 0 lost, duplicated, corrupt;
//               bytes sent again ≤ the remainder + one frame (long: about 15 s an interruption,
//               so off unless --resume N is given)
//   localsend   the LocalSend peer (PyPI localsend 0.1.2) both ways: 20 of 20 each way, our register
//               answer ≤ 100 ms p90, 100 MB never slower than the peer to itself (medians of
//               --localsend-big alternating sends, 6 by default; --localsend-pin CPU pins the
//               sending peer to that CPU for both)
//   airdrop     OpenDrop 0.13 both ways: 20 of 20 each way, `opendrop find` lists us ≤ 600 ms p90,
//               100 MB never slower than OpenDrop to itself
//   handoff     an activity made current on A is in paired B's `nearby activities --watch` ≤ 1 s
//               p90, withdrawn ≤ 1 s p90; an unpaired host learns nothing; seed 002's contact list
//               continued over streams (needs the handoff-probe and Contacts products:
//               swift build -c release --product handoff-probe; … --product Contacts)
//   streams     continuation streams carrying SIZE MiB each way at once against `nearby send` of
//               SIZE MiB, on the same tbf 1 Gbit/s link (each direction), in turn: ≥ nearby's rate
//   person      as a person uses it (every nearby process as an unprivileged user; the receiver
//               running before the pairing): 10.5 MB by name ≤ 1.25× by address, medians of
//               --person ROUNDS (7) back-to-back pairs, on the default port and on one only
//               announced; 1 GiB by name over tbf 1 Gbit/s ≥ 110 MB/s and ≥ 92 % of iperf3
//               (--person-big, 3); no zombie after 200 deliveries into an app it starts;
//               everyone-mode --minutes 1 ends within 2 s of the minute (--person-minutes 1);
//               needs swift build -c release --product PersonViewer
//   flood       an attacker on the lab (the suite's attack-lab.sh): 64 MiB from a paired device,
//               --flood ROUNDS (5) quiet sends, then back to back while the attacker opens 1,000
//               connections to each of the receiver's ports and makes 10,000 PIN guesses: each
//               send ≤ 2× the quiet median; the receiver's peak RSS ≤ 64 MiB; nothing written
//   swift run -c release NearbyBenchmarks [--size MIB] [--rounds N] [--unlimited 1] [--asks N]
//       [--wormhole ROUNDS] [--discovery TRIALS] [--resume INTERRUPTIONS] [--localsend ROUNDS]
//       [--localsend-big N] [--localsend-pin CPU]
//       [--airdrop ROUNDS] [--handoff ROUNDS] [--streams ROUNDS]
//       [--person ROUNDS] [--person-big ROUNDS] [--person-minutes 0|1] [--flood ROUNDS]
//       (0 skips a section)
// LAB and LAB_NET (lab.sh's names) pass through, so that two labs on one machine do not collide.
import BenchmarkSupport
import Foundation

let size = Bench.option("--size", 1024)
let rounds = Bench.option("--rounds", 3)
let rate = Bench.option("--unlimited", 0) == 1 ? "none" : "1gbit"
let asks = Bench.option("--asks", 100)
let wormholeRounds = Bench.option("--wormhole", 3)
let discoveryTrials = Bench.option("--discovery", 100)
let interruptions = Bench.option("--resume", 0)
let localSendRounds = Bench.option("--localsend", 20)
let localSendBig = max(1, Bench.option("--localsend-big", 6))
let localSendPin = Bench.option("--localsend-pin", -1)
let airDropRounds = Bench.option("--airdrop", 20)
let handoffRounds = Bench.option("--handoff", 20)
let streamRounds = Bench.option("--streams", 3)
let personRounds = Bench.option("--person", 7)
let personBig = Bench.option("--person-big", 3)
let personMinutes = Bench.option("--person-minutes", 1)
let floodRounds = Bench.option("--flood", 5)
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let package = here.deletingLastPathComponent().deletingLastPathComponent()
let nearby = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nearby").path
let lab = package.deletingLastPathComponent().appendingPathComponent("shared/nearby/lab.sh").path
let work = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
_ = Bench.shell("cp -r '\(package.path)/Samples' '\(work.path)/Samples' && rm -rf '\(work.path)/Samples/Containers' '\(work.path)/Samples/Nearby'")

/// Runs one of the lab scripts beside this file with `arguments` (after nearby, lab.sh and the
/// work folder); its key=value lines, each key's values in order. Exits when the script failed.
@MainActor func labRun(_ script: String, _ arguments: String, environment: String = "") -> [String: [String]] {
    let run = Bench.shell("\(environment) bash '\(here.path)/\(script)' '\(nearby)' '\(lab)' '\(work.path)' \(arguments)")
    var values: [String: [String]] = [:]
    for line in run.out.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { values[parts[0], default: []].append(parts[1]) }
    }
    if run.status != 0 { print("\(script) failed (status \(run.status))\n\(run.out)"); exit(1) }
    return values
}

func numbers(_ values: [String: [String]], _ key: String) -> [Double] { (values[key] ?? []).map { Double($0) ?? .nan } }

/// The value at quantile `q` of `sorted` (the nearest rank: the smallest value with at least q of
/// them at or below it).
func quantile(_ sorted: [Double], _ q: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[max(0, min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1))]
}

if rounds > 0 {
    print("nearby vs iperf3, \(size) MiB, link \(rate == "none" ? "unlimited veth" : "tbf 1 Gbit/s"), \(rounds) rounds in turn")
    let v = labRun("lab-throughput.sh", "\(size) \(rate) \(rounds)", environment: "ASKS=\(asks)")
    let iperf = numbers(v, "iperf3_MBps"), ours = numbers(v, "nearby_MBps")
    let rss = numbers(v, "peak_rss_kib").map { $0 / 1024 }, intact = numbers(v, "intact")
    for i in ours.indices {
        let ratio = i < iperf.count ? ours[i] / iperf[i] : .nan
        print(String(format: "round %d: iperf3 %.1f MB/s, nearby %.1f MB/s (%.1f %%), receiver peak %.1f MiB, intact %@", i + 1,
                     i < iperf.count ? iperf[i] : .nan, ours[i], ratio * 100, i < rss.count ? rss[i] : .nan, i < intact.count && intact[i] == 1 ? "yes" : "NO"))
    }
    let medianRatio = Bench.median(zip(ours, iperf).map { $0 / $1 })
    print(String(format: "median: nearby %.1f MB/s, iperf3 %.1f MB/s, ratio %.1f %%; receiver peak memory max %.1f MiB; fence %@",
                 Bench.median(ours), Bench.median(iperf), medianRatio * 100, rss.max() ?? .nan, v["fence"]?.last ?? "?"))
    let askTimes = numbers(v, "ask_ms").sorted()
    if !askTimes.isEmpty {
        print(String(format: "%d sends of one byte (whole processes: handshake, ask, answer, upload, delivery): median %.1f ms, p99 %.1f ms, max %.1f ms",
                     askTimes.count, Bench.median(askTimes), quantile(askTimes, 0.99), askTimes.last!))
    }
}

if wormholeRounds > 0 {
    print("nearby vs magic-wormhole 0.24 (direct transit; its mailbox server and transit relay on h3), \(size) MiB, unlimited veth, \(wormholeRounds) rounds in turn")
    let v = labRun("lab-wormhole.sh", "\(size) \(wormholeRounds)")
    let ours = numbers(v, "nearby_MBps"), theirs = numbers(v, "wormhole_MBps")
    let direct = v["wormhole_direct"] ?? [], paths = v["wormhole_path"] ?? []
    let intact = zip(v["nearby_intact"] ?? [], v["wormhole_intact"] ?? []).map { $0 == "1" && $1 == "1" }
    for i in ours.indices where i < theirs.count {
        print(String(format: "round %d: nearby %.1f MB/s, wormhole %.1f MB/s (%@), ratio %.2f×, both intact %@", i + 1, ours[i], theirs[i],
                     i < paths.count ? (direct[i] == "1" ? "direct \(paths[i])" : "RELAYED \(paths[i])") : "?", ours[i] / theirs[i],
                     i < intact.count && intact[i] ? "yes" : "NO"))
    }
    let ratios = zip(ours, theirs).map { $0 / $1 }
    print(String(format: "median: nearby %.1f MB/s, wormhole %.1f MB/s; ratio min %.2f×, median %.2f×, max %.2f×; fence %@",
                 Bench.median(ours), Bench.median(theirs), ratios.min() ?? .nan, Bench.median(ratios), ratios.max() ?? .nan, v["fence"]?.last ?? "?"))
}

if discoveryTrials > 0 {
    print("discovery: receiver started on h1 and `nearby list --timeout 5` on h2 at the same instant, \(discoveryTrials) trials each")
    let v = labRun("lab-discovery.sh", "\(discoveryTrials)")
    for (label, timeKey, foundKey) in [("clean link", "discovery_ms", "found"), ("20 % loss on both hosts", "loss_ms", "loss_found")] {
        let times = numbers(v, timeKey), found = numbers(v, foundKey)
        let seen = zip(times, found).filter { $1 == 1 }.map(\.0).sorted()
        let within = zip(times, found).filter { $1 == 1 && $0 <= 5_000 }.count
        print(String(format: "%@: found %d of %d (%.1f %%; within 5 s: %d); time to found p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms",
                     label, seen.count, found.count, 100 * Double(seen.count) / Double(max(1, found.count)), within,
                     quantile(seen, 0.5), quantile(seen, 0.9), quantile(seen, 0.99), seen.last ?? .nan))
    }
    print("multicast DNS dropped on both hosts (\(v["nomdns_dropped_packets"]?.last ?? "?") packets dropped): list found \(v["nomdns_list_found"]?.last ?? "?") device, "
          + "send --to HOST:PORT exit \(v["nomdns_send_status"]?.last ?? "?"), delivered intact \(v["nomdns_intact"]?.last == "1" ? "yes" : "NO"); fence \(v["fence"]?.last ?? "?")")
}

if interruptions > 0 {
    print("resume: \(interruptions) random interruptions of 256 MiB sends over tbf 500 Mbit/s, each retried until delivered")
    let v = labRun("lab-resume.sh", "256 500mbit \(interruptions)")
    for line in v["interruption"] ?? [] { print("interruption \(line)") }
    let s = { (key: String) in v["summary_" + key]?.last ?? "?" }
    print("seed \(s("seed")); \(s("interrupted")) interruptions (kill -9 sender \(s("kind_kill-sender")), kill -9 receiver \(s("kind_kill-receiver")), "
          + "link down \(s("kind_link-down")), nftables drop \(s("kind_nft-drop"))) over \(s("transfers")) transfers; delivered \(s("delivered")), "
          + "duplicates \(s("duplicates")), lost \(s("lost")), corrupt \(s("corrupt")), partial visible \(s("partial_visible")), open requests \(s("open_requests")); "
          + "left in the spool \(s("left_in_spool")); retries \(s("retries")), accounting errors \(s("bad_accounting")), max excess \(s("max_excess_bytes")) bytes; fence \(v["fence"]?.last ?? "?")")
}

/// Runs a foreign-peer fixture of the test suite (Tests/NearbyTests/Fixtures) on device roots A
/// and B made from the samples; its key=value lines.
@MainActor func peerRun(_ script: String, venv: String, _ arguments: String, environment: String) -> [String: String] {
    let root = work.appendingPathComponent(script)
    _ = Bench.shell("mkdir -p '\(root.path)' && cp -r '\(work.path)/Samples' '\(root.path)/A' && cp -r '\(work.path)/Samples' '\(root.path)/B' && "
                    + "rm -f '\(root.path)/A/registry.bin' '\(root.path)/B/registry.bin' && cp '\(package.path)/Samples/Documents/notes.txt' '\(root.path)/'")
    let fixture = package.appendingPathComponent("Tests/NearbyTests/Fixtures/\(script)").path
    return facts(Bench.shell("\(environment) bash '\(fixture)' '\(nearby)' '\(lab)' '\(root.path)' '\(venv)' \(arguments)"), of: script)
}

/// The key=value lines a lab script printed; a script that failed ends the benchmark.
@MainActor func facts(_ run: (status: Int32, out: String), of script: String) -> [String: String] {
    var values: [String: String] = [:]
    for line in run.out.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { values[parts[0]] = parts[1] }
    }
    if run.status != 0 { print("\(script) failed (status \(run.status))\n\(run.out)"); exit(1) }
    return values
}

if localSendRounds > 0 {
    print("LocalSend (PyPI localsend 0.1.2) both ways, \(localSendRounds) rounds each")
    let pin = localSendPin >= 0 ? " SENDER_CPU=\(localSendPin)" : ""
    let v = peerRun("localsend-lab.sh", venv: "/var/tmp/nearby-localsend-0.1.2", "\(localSendRounds)",
                    environment: "LAB=${LAB:-dls} LAB_NET=${LAB_NET:-10.220.0} BIG_ROUNDS=\(localSendBig)\(pin)")
    let s = { (key: String) in v[key] ?? "?" }
    print("peer to us: found \(s("found")) after \(s("found_ms")) ms; \(s("sent_ok")) of \(s("sent_rounds")) sessions, \(s("receiver_delivered")) delivered; "
          + "register answers \(s("register_answered")), p50 \(s("register_p50_ms")) ms, p90 \(s("register_p90_ms")) ms")
    print("us to peer: \(s("send_arrived")) of \(localSendRounds) arrived intact (\(s("send_by_alias_ok")) by alias), exit statuses true \(s("send_status_matches"))")
    let ours = Double(s("big_ours_seconds")) ?? .nan, itself = Double(s("big_peer_seconds")) ?? .nan, sent = Double(s("send_big_seconds")) ?? .nan
    print("100 MB, \(localSendBig) alternating sends\(localSendPin >= 0 ? ", the sending peer on CPU \(localSendPin)" : ""): peer to us \(s("big_ours_all")) s; "
          + "peer to itself \(s("big_peer_all")) s")
    print(String(format: "100 MB medians: peer to us %.2f s, peer to itself %.2f s (ratio %.2f×); us to peer %.2f s (whole process, ratio %.2f×); fence %@",
                 ours, itself, itself / ours, sent, itself / sent, s("fence")))
}

if airDropRounds > 0 {
    print("AirDrop's HTTP protocol against OpenDrop 0.13 over the lab's link-local awdl0, \(airDropRounds) rounds each")
    let v = peerRun("airdrop-lab.sh", venv: "/var/tmp/nearby-opendrop-0.13.0", "\(airDropRounds) \(airDropRounds)", environment: "LAB=${LAB:-dad} LAB_NET=${LAB_NET:-10.222.0}")
    let s = { (key: String) in v[key] ?? "?" }
    print("opendrop find listed us \(s("finds_listed")) of \(airDropRounds) times: p50 \(s("find_p50_ms")) ms, p90 \(s("find_p90_ms")) ms")
    print("OpenDrop to us: \(s("received_intact")) of \(airDropRounds) intact; us to OpenDrop: \(s("sent_intact")) of \(airDropRounds) intact, exit statuses true \(s("send_status_matches"))")
    let toUs = Double(s("big_opendrop_to_ours_ms")) ?? .nan, itself = Double(s("big_opendrop_to_itself_ms")) ?? .nan, fromUs = Double(s("big_ours_to_opendrop_ms")) ?? .nan
    print(String(format: "100 MB: OpenDrop to us %.0f ms, to itself %.0f ms (ratio %.2f×); us to OpenDrop %.0f ms (ratio %.2f×); intact %@/%@; fence %@",
                 toUs, itself, itself / toUs, fromUs, itself / fromUs, s("big_opendrop_to_ours_intact"), s("big_ours_to_opendrop_intact"), s("fence")))
}

if handoffRounds > 0 {
    print("Handoff: A's app makes an activity current and resigns it, paired B watches, \(handoffRounds) rounds")
    let probe = URL(fileURLWithPath: nearby).deletingLastPathComponent().appendingPathComponent("handoff-probe").path
    guard FileManager.default.isExecutableFile(atPath: probe) else {
        print("no \(probe): swift build -c release --product handoff-probe"); exit(1)
    }
    let contacts = URL(fileURLWithPath: nearby).deletingLastPathComponent().appendingPathComponent("Contacts").path
    guard FileManager.default.isExecutableFile(atPath: contacts) else {
        print("no \(contacts): swift build -c release --product Contacts"); exit(1)
    }
    let root = work.appendingPathComponent("handoff")
    _ = Bench.shell("mkdir -p '\(root.path)' && for d in A B C; do cp -r '\(work.path)/Samples' '\(root.path)'/$d && rm -f '\(root.path)'/$d/registry.bin"
                    + " && mkdir -p '\(root.path)'/$d/Apps/Contacts.app/bin && ln -sfn '\(contacts)' '\(root.path)'/$d/Apps/Contacts.app/bin/contacts; done")
    let fixture = package.appendingPathComponent("Tests/NearbyTests/Fixtures/handoff-lab.sh").path
    let v = facts(Bench.shell("LAB=${LAB:-dho} LAB_NET=${LAB_NET:-10.224.0} bash '\(fixture)' '\(nearby)' '\(probe)' '\(lab)' '\(root.path)' \(handoffRounds)"),
                  of: "handoff-lab.sh")
    let s = { (key: String) in v[key] ?? "?" }
    print("offered: \(s("offer_seen")) of \(handoffRounds) seen, p50 \(s("offer_p50_ms")) ms, p90 \(s("offer_p90_ms")) ms (issue: ≤ 1000 ms p90)")
    print("withdrawn: \(s("withdraw_seen")) of \(handoffRounds) seen, p50 \(s("withdraw_p50_ms")) ms, p90 \(s("withdraw_p90_ms")) ms; after SIGKILL \(s("killed_withdrawn_ms")) ms")
    print("unpaired host: exit \(s("unpaired_status")), refused \(s("unpaired_refused")), saw the offer \(s("unpaired_saw_offer")); "
          + "activity bytes in the switch's capture \(s("capture_markers")) (of \(s("capture_packets")) packets); fence \(s("fence"))")
    print("seed 002: continue exit \(s("continue_status")); B \(s("b_received")); A told \(s("a_told")) time(s), \(s("a_streamed"))")
}

if streamRounds > 0 {
    print("continuation streams vs nearby send, \(size) MiB (streams: each way at once), link \(rate == "none" ? "unlimited veth" : "tbf 1 Gbit/s each way"), \(streamRounds) rounds in turn")
    let probe = URL(fileURLWithPath: nearby).deletingLastPathComponent().appendingPathComponent("handoff-probe").path
    guard FileManager.default.isExecutableFile(atPath: probe) else {
        print("no \(probe): swift build -c release --product handoff-probe"); exit(1)
    }
    let v = labRun("lab-streams.sh", "\(size) \(rate) \(streamRounds)", environment: "PROBE='\(probe)' LAB=${LAB:-dhs} LAB_NET=${LAB_NET:-10.227.0}")
    let ours = numbers(v, "nearby_MBps"), streams = numbers(v, "stream_MBps"), whole = numbers(v, "stream_process_MBps")
    let intact = zip(v["nearby_intact"] ?? [], v["stream_intact"] ?? []).map { $0 == "1" && $1 == "1" }
    for i in ours.indices where i < streams.count {
        print(String(format: "round %d: nearby send %.1f MB/s; streams %.1f MB/s each way (%.1f MB/s for the whole continuing process), ratio %.2f×; intact %@",
                     i + 1, ours[i], streams[i], i < whole.count ? whole[i] : .nan, streams[i] / ours[i], i < intact.count && intact[i] ? "yes" : "NO"))
    }
    let ratios = zip(streams, ours).map { $0 / $1 }
    print(String(format: "median: nearby %.1f MB/s, streams %.1f MB/s each way; ratio min %.2f×, median %.2f× (issue: ≥ 1×); fence %@",
                 Bench.median(ours), Bench.median(streams), ratios.min() ?? .nan, Bench.median(ratios), v["fence"]?.last ?? "?"))
}

if personRounds > 0 {
    print("\nas a person: every nearby process unprivileged, the receiver started before the pairing")
    let v = labRun("lab-person.sh", "\(personRounds) \(personBig) \(personMinutes)")
    print("  receiver's uid: \(v["receiver_uid"]?.first ?? "?")")
    for port in ["53400", "53500"] {
        let name = numbers(v, "port\(port)_by_name_ms"), address = numbers(v, "port\(port)_by_address_ms")
        let failed = ((v["port\(port)_by_name_status"] ?? []) + (v["port\(port)_by_address_status"] ?? [])).filter { $0 != "0" }.count
        let medianName = quantile(name.sorted(), 0.5), medianAddress = quantile(address.sorted(), 0.5)
        print(String(format: "  10.5 MB, receiver on %@%@: by name median %.0f ms, by address %.0f ms: ratio %.2f (≤ 1.25); failed sends %d",
                     port, port == "53400" ? " (where pairing notes it)" : " (announced only)", medianName, medianAddress,
                     medianName / medianAddress, failed))
        print("    by name:    " + name.map { String(format: "%.0f", $0) }.joined(separator: " ") + " ms")
        print("    by address: " + address.map { String(format: "%.0f", $0) }.joined(separator: " ") + " ms")
    }
    let iperf = numbers(v, "iperf3_MBps"), big = numbers(v, "big_MBps")
    for i in big.indices {
        let ratio = i < iperf.count ? big[i] / iperf[i] : .nan
        print(String(format: "  1 GiB by name over 1 Gbit/s: %.1f MB/s, iperf3 %.1f MB/s: %.1f %% (≥ 110 MB/s, ≥ 92 %%), intact %@, status %@",
                     big[i], i < iperf.count ? iperf[i] : .nan, 100 * ratio, v["big_intact"]?[i] ?? "?", v["big_status"]?[i] ?? "?"))
    }
    print("  200 deliveries into an app it starts: \(v["people_delivered"]?.first ?? "?") delivered, zombies \(v["zombies"]?.first ?? "?") (0)")
    if let over = numbers(v, "minutes_over_ms").first {
        print(String(format: "  everyone-mode --minutes 1: exit status %@, %.0f ms after the minute (≤ 2000)", v["minutes_status"]?.first ?? "?", over))
    }
    print("  fence: \(v["fence"]?.first ?? "?") packets addressed outside the lab")
}

if floodRounds > 0 {
    print("\nan attacker on the lab: 64 MiB from a paired device, quiet and during a flood (1,000 connections to each port, 10,000 PIN guesses)")
    let v = labRun("lab-flood.sh", "\(floodRounds) 1000 10000")
    let quiet = numbers(v, "quiet_ms"), flood = numbers(v, "flood_ms")
    let failed = (v["flood_status"] ?? []).filter { $0 != "0" }.count
    let quietMedian = quantile(quiet.sorted(), 0.5)
    print("  quiet:       " + quiet.map { String(format: "%.0f", $0) }.joined(separator: " ") + " ms")
    print("  during flood: " + flood.map { String(format: "%.0f", $0) }.joined(separator: " ") + " ms")
    print(String(format: "  during ÷ quiet median: median %.2f×, worst %.2f× (issue: ≤ 2×); failed sends %d of %d",
                 quantile(flood.sorted(), 0.5) / quietMedian, (flood.max() ?? .nan) / quietMedian, failed, flood.count))
    let before = numbers(v, "quiet_peak_rss_kb").first ?? .nan, after = numbers(v, "receiver_peak_rss_kb").first ?? .nan
    print(String(format: "  receiver peak RSS: %.1f MiB after the quiet sends, %.1f MiB after the flood (issue: ≤ 64 MiB)", before / 1024, after / 1024))
    print("  attacker: ours \(v["flood_ours"]?.first ?? "?"), LocalSend \(v["flood_localsend"]?.first ?? "?"), guesses \(v["flood_guesses"]?.first ?? "?")")
    print("  written for the attacker: \(v["downloads_other"]?.first ?? "?") files, \(v["spool_foreign"]?.first ?? "?") spool transfers; delivered \(v["delivered"]?.first ?? "?") of \(v["sends"]?.first ?? "?") sends; fence \(v["fence"]?.first ?? "?")")
}
