/// A stash entry: one yarn the crafter owns or owned, with what is known of it.
///
/// Every text field but `name` may be unknown (`nil`); an empty string is not used for unknown.
public struct Yarn: Codable, Hashable, Sendable, Identifiable {
  /// A stable identifier, a lower-case UUID (RFC 9562) unless imported from elsewhere.
  public var id: String
  /// The product name, such as `Cascade 220`.
  public var name: String
  /// The maker, such as `Cascade Yarns`.
  public var brand: String?
  /// The colorway: the maker's name for the color, such as `Ruby`.
  public var colorway: String?
  /// A broad color family for sorting, such as `red`.
  public var colorFamily: String?
  /// The dye lot printed on the ball band.
  public var dyeLot: String?
  /// The CYC yarn weight category (see `YarnWeight`), or `nil` when unknown.
  public var weight: YarnWeight?
  /// The fiber content as written on the band, such as `100% Peruvian highland wool`.
  public var fiber: String?
  /// The length of one skein (`yd` or `m`), as the ball band gives it.
  public var lengthPerSkein: Amount?
  /// The net weight of one skein (`g`, `kg`, `oz` or `lb`), as the ball band gives it.
  public var netWeightPerSkein: Amount?
  /// How much the crafter bought, in any unit (usually skeins).
  public var quantity: Amount?
  /// What the crafter says is left, in any unit, overriding the estimate
  /// (`RemainingEstimate.Source.override`).
  public var remainingOverride: Amount?
  /// Where it was bought.
  public var purchaseLocation: String?
  /// The day it was added to the stash (a local calendar day, no time zone).
  public var dateAdded: CalendarDate?
  /// Where it stands: in the stash, used up, given away… (`StashStatus`; whether that is
  /// still in the stash is `StashStatus.isHeld`).
  public var status: StashStatus
  /// What was paid for it, exactly, with its currency; `nil` when unknown.
  public var price: Price?
  /// Where it is kept, such as `blue bin, closet`.
  public var storedIn: String?
  /// Its tags, in the order added (`Tags`, `Rules.tags(_:field:)`).
  public var tags: [String]
  /// Photos, in the order they were attached.
  public var photos: [Attachment]

  /// A yarn; everything but its ID and name may be left out (unknown), and it is in the
  /// stash (`in-stash`) unless `status` says otherwise.
  public init(
    id: String, name: String, brand: String? = nil, colorway: String? = nil,
    colorFamily: String? = nil, dyeLot: String? = nil, weight: YarnWeight? = nil,
    fiber: String? = nil, lengthPerSkein: Amount? = nil, netWeightPerSkein: Amount? = nil,
    quantity: Amount? = nil, remainingOverride: Amount? = nil, purchaseLocation: String? = nil,
    dateAdded: CalendarDate? = nil, status: StashStatus = .inStash, price: Price? = nil,
    storedIn: String? = nil, tags: [String] = [], photos: [Attachment] = []
  ) {
    self.id = id
    self.name = name
    self.brand = brand
    self.colorway = colorway
    self.colorFamily = colorFamily
    self.dyeLot = dyeLot
    self.weight = weight
    self.fiber = fiber
    self.lengthPerSkein = lengthPerSkein
    self.netWeightPerSkein = netWeightPerSkein
    self.quantity = quantity
    self.remainingOverride = remainingOverride
    self.purchaseLocation = purchaseLocation
    self.dateAdded = dateAdded
    self.status = status
    self.price = price
    self.storedIn = storedIn
    self.tags = tags
    self.photos = photos
  }

  /// Whether it is still in the stash: `status.isHeld`.
  public var isHeld: Bool { status.isHeld }

  /// The put-up facts used by conversions: `lengthPerSkein` and `netWeightPerSkein`.
  public var putUp: PutUp {
    PutUp(lengthPerSkein: lengthPerSkein, netWeightPerSkein: netWeightPerSkein)
  }
}

extension Yarn {
  private enum CodingKeys: String, CodingKey {
    case id, name, brand, colorway, colorFamily, dyeLot, weight, fiber, lengthPerSkein
    case netWeightPerSkein, quantity, remainingOverride, purchaseLocation, dateAdded, status
    case price, storedIn, tags, photos
  }

  /// The older yes/no flag: `isStashed` (library.json before the status), `stashed`.
  private enum LegacyKeys: String, CodingKey { case isStashed, stashed }

  /// Writes every field (unknown ones left out), and `isStashed` (`isHeld`) beside `status`:
  /// backup format 1 promises that a reader of the same version never misreads a newer
  /// document, and readers before the status require that flag (docs/FORMAT.md).
  ///
  /// JSONEncoder makes a nested encoder for every `Encodable` value given to
  /// `encode(_:forKey:)` (the list of `stash list --json` spent most of its time there), so
  /// the members that are values of their own are written without one, in the bytes their
  /// own encoding writes: `weight` and `status` as their raw values, the day as its string
  /// (`CalendarDate.encode(to:forKey:)`), the amounts in nested containers
  /// (`Amount.encode(to:forKey:)`, which `Amount.encode(to:)` shares), `tags` and `photos` in
  /// nested unkeyed containers (`encodeElements(_:forKey:)`).
  ///
  /// - Throws: `EncodingError` for an amount that is not finite.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(brand, forKey: .brand)
    try container.encodeIfPresent(colorway, forKey: .colorway)
    try container.encodeIfPresent(colorFamily, forKey: .colorFamily)
    try container.encodeIfPresent(dyeLot, forKey: .dyeLot)
    try container.encodeIfPresent(weight?.rawValue, forKey: .weight)
    try container.encodeIfPresent(fiber, forKey: .fiber)
    if let lengthPerSkein { try lengthPerSkein.encode(to: &container, forKey: .lengthPerSkein) }
    if let netWeightPerSkein { try netWeightPerSkein.encode(to: &container, forKey: .netWeightPerSkein) }
    if let quantity { try quantity.encode(to: &container, forKey: .quantity) }
    if let remainingOverride { try remainingOverride.encode(to: &container, forKey: .remainingOverride) }
    try container.encodeIfPresent(purchaseLocation, forKey: .purchaseLocation)
    if let dateAdded { try dateAdded.encode(to: &container, forKey: .dateAdded) }
    var legacy = encoder.container(keyedBy: LegacyKeys.self)
    try legacy.encode(isHeld, forKey: .isStashed)
    try container.encode(status.rawValue, forKey: .status)
    try container.encodeIfPresent(price, forKey: .price)
    try container.encodeIfPresent(storedIn, forKey: .storedIn)
    try container.encodeElements(tags, forKey: .tags)
    try container.encodeElements(photos, forKey: .photos)
  }

  /// Reads a yarn as `library.json` and `--json` write it (docs/FORMAT.md). `status` may be
  /// left out: then an older `isStashed` (or `stashed`) flag gives it (`true` → `in-stash`,
  /// `false` → `used-up`), and without one either it is `in-stash`. `price`, `storedIn` and
  /// `tags` may be left out (unknown, none).
  ///
  /// - Throws: `DecodingError` for a missing `id`, `name` or `photos`, or a value of the
  ///   wrong type (the flag's too).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    brand = try container.decodeIfPresent(String.self, forKey: .brand)
    colorway = try container.decodeIfPresent(String.self, forKey: .colorway)
    colorFamily = try container.decodeIfPresent(String.self, forKey: .colorFamily)
    dyeLot = try container.decodeIfPresent(String.self, forKey: .dyeLot)
    weight = try container.decodeIfPresent(YarnWeight.self, forKey: .weight)
    fiber = try container.decodeIfPresent(String.self, forKey: .fiber)
    lengthPerSkein = try container.decodeIfPresent(Amount.self, forKey: .lengthPerSkein)
    netWeightPerSkein = try container.decodeIfPresent(Amount.self, forKey: .netWeightPerSkein)
    quantity = try container.decodeIfPresent(Amount.self, forKey: .quantity)
    remainingOverride = try container.decodeIfPresent(Amount.self, forKey: .remainingOverride)
    purchaseLocation = try container.decodeIfPresent(String.self, forKey: .purchaseLocation)
    dateAdded = try container.decodeIfPresent(CalendarDate.self, forKey: .dateAdded)
    if let status = try container.decodeIfPresent(StashStatus.self, forKey: .status) {
      self.status = status
    } else {
      let legacy = try decoder.container(keyedBy: LegacyKeys.self)
      let flag =
        try legacy.decodeIfPresent(Bool.self, forKey: .isStashed)
        ?? legacy.decodeIfPresent(Bool.self, forKey: .stashed)
      status = StashStatus(stashed: flag ?? true)
    }
    price = try container.decodeIfPresent(Price.self, forKey: .price)
    storedIn = try container.decodeIfPresent(String.self, forKey: .storedIn)
    tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
    photos = try container.decode([Attachment].self, forKey: .photos)
  }
}
