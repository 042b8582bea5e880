#if !canImport(Darwin)
import Foundation
import Synchronization
import Testing
@testable import SelectLogStore

/// The engine lock's bias (`LockBias`): the thread that appends enters with plain loads
/// and stores, and every other thread keeps it out for its section. What it must keep:
/// one holder at a time whoever holds it, an owner chosen by the first append and never
/// replaced, and the bias given up for good when a second thread keeps appending.
@Suite("EngineLock's bias: the appending thread's plain entry, revoked by others")
struct EngineLockBiasTests {
    @Test("the first thread that locks to append becomes the owner; a lock that does not append chooses none")
    func ownerIsFirstAppender() throws {
        let box = EngineLock(0)
        box.withLockedValue { $0 += 1 }
        #expect(box.biasOwner == nil, "a section that does not append chose an owner")
        _ = box.lock(appending: true)
        box.unlock()
        if LockBias.available {
            let owner = try #require(box.biasOwner)
            #expect(owner > 1, "the appending thread is the owner")
        } else {
            #expect(box.biasOwner == 0, "without membarrier(2) nobody is the owner")
        }
    }

    @Test("the owner appends in a loop while two threads take the lock for sections of their own: no update is lost")
    func ownerAndRevokers() throws {
        // The owner's sections run on its plain entry, the others' after revoking it;
        // two sections that overlap lose updates (`EngineLockTests.Counts`).
        // The owner appends until both others are done, so that every one of their
        // sections meets it appending.
        let box = EngineLock(EngineLockTests.Counts())
        let others = 5_000
        let othersDone = Atomic<Int>(0), owned = Atomic<Int>(0)
        try EngineLockTests.run(threads: 3) { k in
            if k == 0 {
                var mine = 0
                while othersDone.load(ordering: .relaxed) < 2 || mine == 0 {
                    box.lock(appending: true).pointee.increment()
                    box.unlock()
                    mine += 1
                }
                owned.store(mine, ordering: .relaxed)
            } else {
                // Start once the owner is chosen, so that these sections revoke it.
                while box.biasOwner == nil { sched_yield() }
                for _ in 0..<others {
                    box.withLockedValue { $0.increment() }
                }
                othersDone.add(1, ordering: .relaxed)
            }
        }
        let counts = box.withLockedValue { $0 }
        #expect(counts.a == owned.load(ordering: .relaxed) + 2 * others)
        #expect(counts.b == counts.a)
        if LockBias.available {
            #expect((box.biasOwner ?? 0) > 1, "sections that do not append left the bias in place")
        }
    }

    @Test("a second thread that appends gives the bias up after 64 appends, and sections stay exclusive across the change")
    func secondAppenderAbandons() throws {
        let box = EngineLock(EngineLockTests.Counts())
        _ = box.lock(appending: true)
        box.unlock()
        let perThread = 100_000
        try EngineLockTests.run(threads: 2) { _ in
            for _ in 0..<perThread {
                box.lock(appending: true).pointee.increment()
                box.unlock()
            }
        }
        let counts = box.withLockedValue { $0 }
        #expect(counts.a == 2 * perThread)
        #expect(counts.b == counts.a)
        // The owner was this test's thread, which the two threads are not: both append as
        // other threads, and the bias is given up.
        #expect(box.biasOwner == 0, "two threads appending gave the bias up")
    }

    @Test("the owner waits while another thread holds the lock, and goes on when it lets go (30 ms)")
    func ownerWaitsForRevoker() {
        let box = EngineLock([String]())
        _ = box.lock(appending: true)
        box.unlock()
        let held = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.withLockedValue { log in
                held.signal()
                Thread.sleep(forTimeInterval: 0.03)
                log.append("other")
            }
            done.signal()
        }
        held.wait()
        // Entering on the bias now would put "owner" first.
        let c = box.lock(appending: true)
        c.pointee.append("owner")
        box.unlock()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(box.withLockedValue { $0 } == ["other", "owner"])
    }
}
#endif
